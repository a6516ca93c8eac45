/**
 * An inbound ActivityPub activity in the form the social service applies (the spec's wire): the
 * actor is its handle (with the inbox and shared inbox of its actor document), this server's
 * URLs become its ids, remote objects get their ids here (ids.ts). The trust checks stay the
 * social service's (ids on the signer's domain, the author is the actor).
 */
import type { RemoteActorRecord } from '@agora/common/db';
import { domainOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { ancestryOf } from './inbound-ancestors';
import { idMap, type IdMap } from './ids';
import {
  announceToSpec,
  announcesPost,
  unannounceByIdToSpec,
  unannounceToSpec,
  undoesAnnounce,
} from './inbound-announce';
import { isPublicPost, isReaction, privateAudience, reactionToSpec, undoneReaction } from './inbound-content';
import { withLocalMentions } from './inbound-mentions';
import { PUBLIC_FORMS } from './vocab';
import { type Json, isObject, idOf, POST_TYPES } from './json';

/** A reference: this server's URL → its id; a known actor → its handle; else the URL as given. */
async function ref(ids: IdMap, v: unknown): Promise<string | undefined> {
  const url = idOf(v);
  if (!url) return undefined;
  if (PUBLIC_FORMS.has(url)) return '@public';
  return (await ids.idOf(url)) ?? url;
}

async function audience(ids: IdMap, v: unknown): Promise<string[] | undefined> {
  if (v === undefined) return undefined;
  const list = (Array.isArray(v) ? v : [v]).slice(0, 100);
  return (await Promise.all(list.map((x) => ref(ids, x)))).filter((x): x is string => !!x);
}

/**
 * A Note: a public reply (`inReplyTo`) gets a `reply:` id and joins its thread; a post that is not
 * public is kept for its addressees only (inbound-content.ts), never joined to a thread, whose
 * replies everyone who sees the root may read.
 */
async function post(
  ids: IdMap,
  o: Json,
  actor: RemoteActorRecord,
  open: boolean,
  domain: string,
): Promise<Json> {
  const url = idOf(o.id);
  const author = idOf(o.attributedTo);
  const reply = open && o.inReplyTo !== undefined && o.inReplyTo !== null;
  const out: Json = {
    ...(await withLocalMentions(ids, o, domain)),
    id: url ? await ids.objectIdOf(url, reply ? 'reply' : 'post') : undefined,
    attributedTo: author === actor._id ? actor.handle : author,
    url: typeof o.url === 'string' ? o.url : url,
    to: await audience(ids, o.to),
    cc: await audience(ids, o.cc),
  };
  delete out.inReplyTo;
  if (reply) out.inReplyTo = await ref(ids, o.inReplyTo);
  return out;
}

/** The actor as a spec peer names it: its handle, with its name and inboxes. */
function actorForm(actor: RemoteActorRecord): Json {
  return {
    id: actor.handle,
    name: actor.name ?? undefined,
    preferredUsername: actor.handle.split('@')[1],
    inbox: actor.inbox,
    ...(actor.sharedInbox ? { endpoints: { sharedInbox: actor.sharedInbox } } : {}),
  };
}

/**
 * A public reply whose parent is not held here carries the thread above it, fetched
 * (inbound-ancestors.ts), as the Creates its server would have sent, root first (`ancestors`);
 * or why it could not be had (`ancestorsMissing`). Only this service sets either field.
 */
async function withAncestors(
  ctx: FederationContext,
  ids: IdMap,
  out: Json,
  note: Json,
  actor: RemoteActorRecord,
) {
  const ancestry = await ancestryOf(ctx, ids, note, domainOf(actor._id) ?? '');
  if (!ancestry) return;
  if ('missing' in ancestry) {
    out.ancestorsMissing = ancestry.missing;
    return;
  }
  const creates: Json[] = [];
  for (const { doc, author } of ancestry.ancestors)
    creates.push({
      type: 'Create',
      actorId: author.handle,
      actor: actorForm(author),
      to: await audience(ids, doc.to),
      cc: await audience(ids, doc.cc),
      object: await post(ids, doc, author, true, ctx.config.DOMAIN),
    });
  out.ancestors = creates;
}

export async function toSpecForm(
  ctx: FederationContext,
  activity: Json,
  actor: RemoteActorRecord,
): Promise<Json> {
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const handle = actor.handle;
  const out: Json = {
    ...activity,
    actorId: handle,
    actor: actorForm(actor),
    to: await audience(ids, activity.to),
    cc: await audience(ids, activity.cc),
  };
  // What the fetched thread above a reply gives (below): never taken from the peer.
  delete out.ancestors;
  delete out.ancestorsMissing;
  if (isReaction(activity)) return { ...out, ...(await reactionToSpec(ids, activity)) };
  // A boost: a share by the announcer (inbound-announce.ts); else left for the social service to ignore.
  if (announcesPost(activity)) return { ...out, ...(await announceToSpec(ctx, ids, activity, actor)) };
  if (undoesAnnounce(activity)) return { ...out, ...(await unannounceToSpec(ids, activity)) };
  const unshared = await unannounceByIdToSpec(ctx, ids, activity, actor);
  if (unshared) return { ...out, ...unshared };
  const object = activity.object;
  if (isObject(object)) {
    const type = typeof object.type === 'string' ? object.type : '';
    if (POST_TYPES.has(type)) {
      const open = isPublicPost(activity, object);
      if (open && activity.type === 'Create' && object.inReplyTo != null)
        await withAncestors(ctx, ids, out, object, actor);
      out.object = await post(ids, object, actor, open, ctx.config.DOMAIN);
      if (!open && (activity.type === 'Create' || activity.type === 'Update')) {
        const addressed = await privateAudience(ctx, ids, activity, object, actor);
        Object.assign(out, addressed);
        out.object = { ...(out.object as Json), to: addressed.to, cc: [] };
      }
    } else if (isReaction(object)) {
      // Undo of a Like / EmojiReact: an Undo of the React it became.
      out.object = { ...(await undoneReaction(ctx, ids, object)), actor: handle };
    } else if (type === 'Person' || type === 'Service' || type === 'Application')
      out.object = { ...object, id: handle };
    else if (type === 'Tombstone') out.object = (await ids.idOf(idOf(object) ?? '')) ?? idOf(object);
    else {
      // An inner activity (Undo of a Follow): its actor and object mapped alike.
      out.object = { ...object, actor: handle, object: await ref(ids, object.object) };
    }
  } else if (typeof object === 'string') {
    // Undo of a Like / EmojiReact given by its id alone: an Undo of the React it became.
    const undone = activity.type === 'Undo' ? await undoneReaction(ctx, ids, object) : undefined;
    out.object = undone
      ? { ...undone, actor: handle }
      : object === actor._id
        ? handle
        : ((await ids.idOf(object)) ?? object);
  }
  return out;
}
