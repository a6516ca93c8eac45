/**
 * A forwarded activity that carries no Linked Data Signature (ADR 0037, option b): its content is
 * not taken from the forwarder, but read from its origin, as Mastodon reads what it cannot verify.
 * The object's id must be on the actor's domain; it is fetched there through the safe client
 * (signed as this server's actor; the SSRF rules hold). A `Create` or `Update` is rebuilt from
 * what the origin serves: the object at that id, a post attributed to the actor, its audience
 * its own; nothing of the forwarded body but the activity's id, type and actor is kept. A `Delete`
 * is taken only when the origin says the object is gone (410 or a Tombstone), or answers 404 for
 * an object held here as public (a 404 may only mean that this server may not see it).
 */
import { isHttpUrl } from '@agora/common/validation';
import { Unauthorized } from '@agora/common/errors';
import { domainOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { idMap } from './ids';
import { type Json, idOf, POST_TYPES } from './json';
import { fetchAnswer } from './resolve';

const refused = (why: string) =>
  new Unauthorized(`The signing key's owner is not the activity's actor, and ${why}`);

/**
 * Whether the copy held here of the object at `url` is public (a reply in a thread, which only a
 * public reply joins, or a public post): its origin's 404 then says it is gone, as this server
 * could read it before. Mastodon answers 404 too for a followers-only or direct post its
 * requester (this server's actor) may not see, which a Delete must not be taken on.
 */
async function heldPublic(ctx: FederationContext, url: string): Promise<boolean> {
  const id = await idMap(ctx.config, ctx.stores.activityPub).idOf(url);
  if (id?.startsWith('reply:')) return !!(await ctx.stores.replies.byId(id));
  if (id?.startsWith('post:')) return (await ctx.stores.posts.byId(id))?.to === '@public';
  return false;
}

/** The activity to apply, from what the object's origin serves; throws Unauthorized, with why. */
export async function refetchForwarded(
  ctx: FederationContext,
  activity: Json,
  type: string,
  actorUrl: string,
): Promise<Json> {
  const objectUrl = idOf(activity.object);
  if (!objectUrl || !isHttpUrl(objectUrl) || domainOf(objectUrl) !== domainOf(actorUrl))
    throw refused("its object is not on the actor's domain, where it could be read");
  const { status, doc } = await fetchAnswer(ctx, objectUrl).catch(() => ({ status: 0, doc: undefined }));
  const base = { '@context': activity['@context'], id: activity.id, type, actor: actorUrl };
  if (type === 'Delete') {
    const tombstone = doc?.type === 'Tombstone' && doc.id === objectUrl;
    if (status === 404 && !tombstone && !(await heldPublic(ctx, objectUrl)))
      throw refused(
        "the object's origin answers 404, as it does for a post this server may not see, and no public copy of it is held here",
      );
    if (status !== 404 && status !== 410 && !tombstone)
      throw refused(`the object's origin still serves it (HTTP ${status || 'no answer'}): it is not deleted`);
    return { ...base, object: { id: objectUrl, type: 'Tombstone' } };
  }
  if (!doc) throw refused(`the object's origin does not serve it (HTTP ${status || 'no answer'})`);
  if (doc.id !== objectUrl) throw refused('the object its origin serves has another id');
  if (!POST_TYPES.has(String(doc.type))) throw refused('the object its origin serves is not a post');
  if (idOf(doc.attributedTo) !== actorUrl) throw refused("the object its origin serves is not the actor's");
  return {
    ...base,
    to: doc.to,
    cc: doc.cc,
    ...(typeof doc.published === 'string' ? { published: doc.published } : {}),
    object: doc,
  };
}
