/**
 * Signs an outgoing request as this server (decisions.md §6): the server key kept in settings,
 * the server actor's key id. Every federation request this server makes (deliveries, pulls,
 * remote lookups) is signed here.
 */
import type { Config } from '../config';
import type { Stores } from '../db';
import { serverKeyId } from './peers';
import { signRequest } from './signature';

export async function signAsServer(
  rt: { config: Config; stores: Pick<Stores, 'settings'> },
  req: { method: string; url: string; body?: string },
): Promise<Record<string, string>> {
  const privateKeyPem = await rt.stores.settings.get<string>('privateKey');
  if (!privateKeyPem) throw new Error('the server key is missing (bootstrap has not run)');
  return signRequest({ ...req, keyId: serverKeyId(rt.config), privateKeyPem });
}
