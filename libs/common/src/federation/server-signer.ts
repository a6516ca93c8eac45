/**
 * Signs an outgoing request as this server (decisions.md §6): the server key kept in settings,
 * the server actor's key id. Every federation request this server makes (deliveries, pulls,
 * remote lookups) is signed here.
 */
import type { Runtime } from '../runtime';
import { serverKeyId } from './peers';
import { signRequest } from './signature';

export async function signAsServer(
  rt: Pick<Runtime, 'config' | 'repos'>,
  req: { method: string; url: string; body?: string },
): Promise<Record<string, string>> {
  const privateKeyPem = await rt.repos.settings.get<string>('privateKey');
  if (!privateKeyPem) throw new Error('the server key is missing (bootstrap has not run)');
  return signRequest({ ...req, keyId: serverKeyId(rt.config), privateKeyPem });
}
