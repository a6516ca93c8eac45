/**
 * An inbound ActivityPub `Announce` of a post (a boost) in the spec's form (docs/federation.md,
 * "ActivityPub"): a public post by the announcing actor, its id from the Announce's URL (on the
 * announcer's server), its `url` the original's, its content a link to the original's author and
 * the original's content quoted, so the announcer's followers here read it in their timelines as
 * a share. The original is read from this server when held here (a local post, a public copy),
 * else fetched from its own URL (its author must be on that URL's server); only a public original
 * is shared. `Undo` of the Announce deletes the share. Anything else is left to the social service,
 * which ignores it (thread relays are Announces of activities on the spec's wire only).
 */
import type { RemoteActorRecord } from '@agora/common/db';
import { shareContent } from '@agora/common/content';
import { domainOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import type { IdMap } from './ids';
import { fetchDocument, resolveActor } from './resolve';
import { type Json, isObject, idOf, POST_TYPES, addressesPublic } from './json';

interface Original {
  url: string;
  author: string;
  content: string;
}

/** Whether an Announce names a post (a URL, or a Note / Article) rather than an activity. */
export function announcesPost(activity: Json): boolean {
  const o = activity.object;
  return (
    activity.type === 'Announce' && (typeof o === 'string' || (isObject(o) && POST_TYPES.has(String(o.type))))
  );
}

/** An Undo of an Announce (its id, embedded or as a URL). */
export function undoesAnnounce(activity: Json): boolean {
  return activity.type === 'Undo' && isObject(activity.object) && activity.object.type === 'Announce';
}

async function originalOf(ctx: FederationContext, ids: IdMap, url: string): Promise<Original | undefined> {
  const held = await ids.idOf(url);
  if (held?.startsWith('post:')) {
    const post = await ctx.stores.posts.byId(held);
    if (!post || post.deletedAt || post.to !== '@public') return undefined;
    return { url: post.url ?? url, author: post.actorId, content: post.body ?? '' };
  }
  const doc = await fetchDocument(ctx, url).catch(() => undefined);
  if (!doc || doc.id !== url || !POST_TYPES.has(String(doc.type)) || !addressesPublic(doc)) return undefined;
  const authorUrl = idOf(doc.attributedTo);
  if (!authorUrl || domainOf(authorUrl) !== domainOf(url)) return undefined;
  const author = await resolveActor(ctx, authorUrl);
  if (!author) return undefined;
  return { url, author: author.handle, content: typeof doc.content === 'string' ? doc.content : '' };
}

/** The Announce as a Create of the share, or undefined when there is nothing public to share. */
export async function announceToSpec(
  ctx: FederationContext,
  ids: IdMap,
  activity: Json,
  actor: RemoteActorRecord,
): Promise<Json | undefined> {
  const announceUrl = idOf(activity.id);
  const url = idOf(activity.object);
  if (!announceUrl || !url || !addressesPublic(activity)) return undefined;
  const original = await originalOf(ctx, ids, url);
  if (!original) return undefined;
  return {
    type: 'Create',
    object: {
      id: await ids.objectIdOf(announceUrl),
      type: 'Note',
      attributedTo: actor.handle,
      content: shareContent(original),
      url: original.url,
      // The original's id here when held, else its URL: the share quotes it, names no one.
      shareOf: (await ids.idOf(url)) ?? url,
      published: activity.published,
      to: ['@public'],
    },
  };
}

/**
 * Undo naming an activity by its id alone: when that id is a share this actor made (an
 * Announce of theirs kept as their post), the Delete of it; otherwise undefined.
 */
export async function unannounceByIdToSpec(
  ctx: FederationContext,
  ids: IdMap,
  activity: Json,
  actor: RemoteActorRecord,
): Promise<Json | undefined> {
  if (activity.type !== 'Undo' || typeof activity.object !== 'string') return undefined;
  const held = await ids.idOf(activity.object);
  if (!held?.startsWith('post:')) return undefined;
  const post = await ctx.stores.posts.byId(held);
  return post && post.actorId === actor.handle ? { type: 'Delete', object: held } : undefined;
}

/** Undo of an Announce → Delete of the share it made. */
export async function unannounceToSpec(ids: IdMap, activity: Json): Promise<Json | undefined> {
  const announceUrl = idOf(activity.object);
  const share = announceUrl ? await ids.idOf(announceUrl) : undefined;
  return share ? { type: 'Delete', object: share } : undefined;
}
