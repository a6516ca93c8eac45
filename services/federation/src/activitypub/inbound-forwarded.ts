/**
 * A forwarded activity (ActivityPub §7.1.2; ADR 0037): one whose HTTP signature is by another
 * actor than its own, as Mastodon (`forward_for_reply`) and Fedify (`forwardActivity`) send a
 * reply to their user's thread on to her followers' servers: the author's server's JSON,
 * unchanged, HTTP-signed by the forwarder. It is taken on its author's own Linked Data Signature
 * in the body (ld-signature.ts), whose key must be the actor's (its owner), its id on the actor's
 * domain. It is then applied as a thread relay is (social `inbound/threads.ts`): with the
 * forwarder as its sender, so the thread rule decides (thread-trust.ts): it is heard when the
 * forwarder owns the thread's root, as Mastodon forwards a reply to its user's post. It is
 * recorded under its id and the forwarder's domain: the same reply pushed by its author's server
 * (refused in a thread that server does not own) does not hide it; the social service stores a
 * reply once however it arrives.
 */
import { NotAuthorized, Unauthorized } from '@agora/common/errors';
import { domainOf, type VerifiedSignature } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { ldSignatureOf, verifyLdSignature } from './ld-signature';

type Json = Record<string, unknown>;

/** What a server forwards (a reply in a thread, its edit, its removal): other types must come from their actor. */
export const FORWARDED_TYPES = new Set(['Create', 'Update', 'Delete']);

/** Whether the body may be taken as forwarded: a type that is forwarded, with a Linked Data Signature. */
export function mayBeForwarded(type: string, activity: Json): boolean {
  return FORWARDED_TYPES.has(type) && ldSignatureOf(activity) !== undefined;
}

/**
 * The trust of a forwarded activity: its actor's domain (as the signer's would be) and how it
 * was verified (`via`, recorded on the inbound activity). Throws Unauthorized, with why.
 */
export async function trustForwarded(
  ctx: FederationContext,
  activity: Json,
  type: string,
  actorUrl: string,
  forwarder: VerifiedSignature,
): Promise<{ signerDomain: string; via: string; remoteId: string }> {
  if (!mayBeForwarded(type, activity))
    throw new Unauthorized(
      "The signing key's owner is not the activity's actor, and the activity carries no Linked Data Signature of a forwardable type (Create, Update, Delete)",
    );
  const { key, creator } = await verifyLdSignature(activity, ctx.federation.verifyWithKey);
  if (key.owner !== actorUrl)
    throw new Unauthorized("The Linked Data Signature's key is not the activity's actor's");
  const actorDomain = domainOf(actorUrl);
  if (!actorDomain || key.ownerDomain.toLowerCase() !== actorDomain)
    throw new Unauthorized("The Linked Data Signature's key is not on the actor's domain");
  const id = typeof activity.id === 'string' ? activity.id : '';
  if (domainOf(id) !== actorDomain)
    throw new NotAuthorized("id: an activity's id must be on its actor's domain");
  ctx.logger.info(
    { actor: actorUrl, id: activity.id, forwarder: forwarder.keyId },
    'forwarded activity accepted on its Linked Data Signature',
  );
  return {
    signerDomain: forwarder.signerDomain,
    via: `${creator} (Linked Data Signature; forwarded by ${forwarder.keyId})`,
    remoteId: `${id}#forwarded-by:${forwarder.signerDomain}`,
  };
}
