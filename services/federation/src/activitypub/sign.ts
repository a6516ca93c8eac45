/**
 * Signing an ActivityPub delivery as its actor (docs/federation.md, "ActivityPub"): a local user
 * with their own key (made on first need), the server actor with the server key. Draft-cavage
 * (with Digest) unless the peer asked for RFC 9421 (remembered per domain: attempt.ts).
 */
import { actorKeyOf, signRequest, signRfc9421 } from '@agora/common/federation';
import type { SignatureScheme } from '@agora/common/db';
import type { FederationContext } from '../context';
import { localIdOf } from './ids';

export async function signAsActor(
  ctx: FederationContext,
  actorUrl: string,
  req: { method: string; url: string; body: string },
  scheme: SignatureScheme,
): Promise<Record<string, string>> {
  const actorId = localIdOf(ctx.config, actorUrl);
  if (!actorId) throw new Error(`not a local actor: ${actorUrl}`);
  let privateKeyPem: string | undefined;
  if (actorId === `@${ctx.config.DOMAIN}`)
    privateKeyPem = await ctx.stores.settings.get<string>('privateKey');
  else privateKeyPem = (await actorKeyOf(ctx.stores.activityPub, actorId)).privateKeyPem;
  if (!privateKeyPem) throw new Error('the server key is missing (bootstrap has not run)');
  const keyId = `${actorUrl}#main-key`;
  return scheme === 'rfc9421'
    ? signRfc9421({ ...req, keyId, privateKeyPem })
    : signRequest({ ...req, keyId, privateKeyPem });
}
