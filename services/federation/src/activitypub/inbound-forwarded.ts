/**
 * A forwarded activity (ActivityPub §7.1.2; ADR 0037): one whose HTTP signature is by another
 * actor than its own, as Mastodon (`forward_for_reply`) and Fedify (`forwardActivity`) send a
 * reply to their user's thread on to her followers' servers: the author's server's JSON,
 * unchanged, HTTP-signed by the forwarder. Only a `Create`, `Update` or `Delete` is taken so, its
 * id on its actor's domain, and never on the forwarder's word:
 *
 * - with a Linked Data Signature (`RsaSignature2017`, ld-signature.ts), on that signature: its
 *   key must be the actor's (its owner); a signature that does not verify refuses the activity;
 *   what is applied is the signed graph compacted in this server's terms, never the JSON keys as
 *   received (an inline context may rename them without changing what is signed); the key is
 *   checked (on the actor's domain, owned by the actor) before the body is canonicalised, and a
 *   body over 64 KiB or 400 nodes is not canonicalised: it is read from its origin;
 * - else with an Object Integrity Proof (`eddsa-jcs-2022`, object-proof.ts), on that proof: its
 *   Multikey's controller must be the actor; a proof that does not verify refuses it;
 * - with neither, from the object's origin (inbound-refetched.ts): what it serves is applied.
 *
 * It is then applied as a thread relay is (social `inbound/threads.ts`): with the forwarder as
 * its sender, so the thread rule decides (thread-trust.ts): it is heard when the forwarder owns
 * the thread's root, as Mastodon forwards a reply to its user's post. It is recorded under its
 * id and the forwarder's domain: the same reply pushed by its author's server (refused in a
 * thread that server does not own) does not hide it, and the social service stores a reply once
 * however it arrives.
 */
import { NotAuthorized, Unauthorized } from '@agora/common/errors';
import { domainOf, type VerifiedSignature } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { ldSignatureOf, ldTooLarge, verifyLdSignature } from './ld-signature';
import { refetchForwarded } from './inbound-refetched';
import { fetchMultikey } from './multikey';
import { objectProofOf, verifyObjectProof } from './object-proof';
import { fetchDocument } from './resolve';
import { type Json, idOf } from './json';

/** What a server forwards (a reply in a thread, its edit, its removal): other types must come from their actor. */
export const FORWARDED_TYPES: ReadonlySet<string> = new Set(['Create', 'Update', 'Delete']);

export interface ForwardedTrust {
  /** The forwarder's domain: the sender the thread rule hears. */
  signerDomain: string;
  /** How it was verified, recorded on the inbound activity. */
  via: string;
  /** The key it is recorded (and deduplicated) under. */
  remoteId: string;
  /**
   * The activity to apply: the signed graph in this server's terms (Linked Data Signature), the
   * body as received (Object Integrity Proof: its JSON is what is signed), else rebuilt from the
   * origin. The body as received is what is kept to be forwarded on.
   */
  activity: Json;
  /** Whether the body is its author's, as signed (so it may be forwarded on: forward.ts). */
  signed: boolean;
}

/** The trust of a forwarded activity; throws Unauthorized (or 403 for an id elsewhere), with why. */
export async function trustForwarded(
  ctx: FederationContext,
  activity: Json,
  type: string,
  actorUrl: string,
  forwarder: VerifiedSignature,
): Promise<ForwardedTrust> {
  if (!FORWARDED_TYPES.has(type))
    throw new Unauthorized(
      "The signing key's owner is not the activity's actor (only a Create, Update or Delete is taken forwarded)",
    );
  const actorDomain = domainOf(actorUrl);
  const id = typeof activity.id === 'string' ? activity.id : '';
  if (!actorDomain || domainOf(id) !== actorDomain)
    throw new NotAuthorized("id: a forwarded activity's id must be on its actor's domain");
  const recorded = {
    signerDomain: forwarder.signerDomain,
    remoteId: `${id}#forwarded-by:${forwarder.signerDomain}`,
  };
  const forwardedBy = `forwarded by ${forwarder.keyId}`;
  // A body too large to canonicalise here (ld-signature.ts) is read from its origin instead.
  const ldSigned = ldSignatureOf(activity) !== undefined;
  const tooLarge = ldSigned ? ldTooLarge(activity) : undefined;
  if (tooLarge)
    ctx.logger.info(
      { actor: actorUrl, id, tooLarge },
      'forwarded activity: too large to check its signature',
    );
  if (ldSigned && !tooLarge) {
    // verifyLdSignature refuses a key that is not the actor's before anything else.
    const { creator, document } = await verifyLdSignature(activity, actorUrl, ctx.federation);
    // What is applied is the signed graph in this server's terms (ld-signature.ts): its id, type
    // and actor must be what the JSON said, which the checks above were made on.
    if (document.id !== id || document.type !== type || idOf(document.actor) !== actorUrl)
      throw new Unauthorized(
        "The Linked Data Signature's body does not say what its JSON keys say (its context redefines them)",
      );
    ctx.logger.info(
      { actor: actorUrl, id, forwarder: forwarder.keyId },
      'forwarded activity: signed by its actor',
    );
    return {
      ...recorded,
      via: `${creator} (Linked Data Signature; ${forwardedBy})`,
      activity: { ...document, signature: activity.signature },
      signed: true,
    };
  }
  if (objectProofOf(activity)) {
    const fetchDoc = (url: string) => fetchDocument(ctx, url);
    const { key, keyId } = await verifyObjectProof(activity, (k) => fetchMultikey(fetchDoc, k, actorUrl));
    if (key.controller !== actorUrl)
      throw new Unauthorized("The Object Integrity Proof's key is not the activity's actor's");
    ctx.logger.info(
      { actor: actorUrl, id, forwarder: forwarder.keyId },
      'forwarded activity: proven by its actor',
    );
    return { ...recorded, via: `${keyId} (Object Integrity Proof; ${forwardedBy})`, activity, signed: true };
  }
  const rebuilt = await refetchForwarded(ctx, activity, type, actorUrl);
  ctx.logger.info(
    { actor: actorUrl, id, forwarder: forwarder.keyId },
    'forwarded activity: read from its origin',
  );
  return {
    ...recorded,
    via: `${idOf(activity.object) ?? ''} (read from its origin; ${forwardedBy})`,
    activity: rebuilt,
    signed: false,
  };
}
