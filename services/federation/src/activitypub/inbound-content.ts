/**
 * Inbound ActivityPub content in the spec's form (docs/federation.md, "ActivityPub"; ADR 0022):
 * `Like` and `EmojiReact` become the spec's `React` (a Like with no emoji is 👍, the "Like" of
 * this API), their `Undo` an Undo of that React; a post that is not public (followers-only,
 * direct) becomes a post to a circle of the sending server holding exactly its addressees here:
 * the local actors it names in `to`/`cc`, and, when it names the actor's followers collection,
 * the local users whose Follow of the actor was accepted. The social service then keeps it for
 * those readers only, as any circle post of a peer (services/social/src/inbound/audience.ts).
 */
import type { RemoteActorRecord } from '@agora/common/db';
import type { FederationContext } from '../context';
import { remoteObjectIdFor, type IdMap } from './ids';
import { PUBLIC_FORMS } from './vocab';
import { type Json, isObject, idOf, list } from './json';

export const LIKE_EMOJI = '👍';
const REACTIONS = new Set(['Like', 'EmojiReact']);

export function isReaction(v: unknown): boolean {
  return isObject(v) && REACTIONS.has(String(v.type));
}

/** The emoji of a Like or EmojiReact: `content` (Misskey's `_misskey_reaction` too), else 👍. */
function emojiOf(reaction: Json): string {
  const given = [reaction.content, reaction._misskey_reaction].find(
    (v): v is string => typeof v === 'string' && !!v.trim(),
  );
  return given ? given.trim().slice(0, 32) : LIKE_EMOJI;
}

/** `Like` / `EmojiReact` of an object → `React` with `to` the object and the reaction's own id. */
export async function reactionToSpec(ids: IdMap, reaction: Json): Promise<Json> {
  const url = idOf(reaction.id);
  const target = idOf(reaction.object);
  const emoji = emojiOf(reaction);
  return {
    type: 'React',
    to: target ? ((await ids.idOf(target)) ?? target) : undefined,
    object: {
      id: url ? await ids.objectIdOf(url, 'react') : undefined,
      type: 'React',
      emoji,
      ...(emoji === LIKE_EMOJI ? { name: 'Like' } : {}),
    },
  };
}

/**
 * The reaction an Undo names, embedded or by its id alone (both are sent: Mastodon embeds the
 * Like, others give its URL), as the React to undo: exactly the reaction held here under that
 * id, on the target it was stored for. An id alone of a reaction not held (undone or replaced
 * already, or received and not applied yet) is the React it arrived as, on its target, so the
 * social service undoes it in order or records that no such reaction is held; undefined when the
 * id names no reaction this server received.
 */
export async function undoneReaction(
  ctx: FederationContext,
  ids: IdMap,
  reaction: Json | string,
): Promise<Json | undefined> {
  const url = idOf(reaction);
  const id = url ? await ids.idOf(url) : undefined;
  const held = id?.startsWith('react:') ? await ctx.stores.reacts.byId(id) : null;
  if (typeof reaction === 'string') {
    const target =
      held?.target ?? (id?.startsWith('react:') ? await receivedTarget(ctx, reaction) : undefined);
    return target ? { type: 'React', to: target, object: { id } } : undefined;
  }
  const spec = await reactionToSpec(ids, reaction);
  return held ? { ...spec, to: held.target } : spec;
}

/** The target of the reaction received under this activity id (its recorded React's `to`). */
async function receivedTarget(ctx: FederationContext, url: string): Promise<string | undefined> {
  const recorded = await ctx.stores.activities.byRemoteId(url);
  if (recorded?.type !== 'React' || !recorded.raw) return undefined;
  try {
    const raw = JSON.parse(recorded.raw) as unknown;
    return isObject(raw) && typeof raw.to === 'string' ? raw.to : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the post is addressed to the Public collection (in `to` or `cc`, of the activity or the object). */
export function isPublicPost(activity: Json, object: Json): boolean {
  return [activity.to, activity.cc, object.to, object.cc]
    .flatMap(list)
    .some((t) => PUBLIC_FORMS.has(idOf(t) ?? ''));
}

/**
 * A followers-only or direct post as a post to a circle of its sender (one per post, its id a hash
 * of the post's URL) holding its readers here; `recipients` empty when it names no one here.
 */
export async function privateAudience(
  ctx: FederationContext,
  ids: IdMap,
  activity: Json,
  object: Json,
  actor: RemoteActorRecord,
): Promise<Json> {
  const named = [activity.to, activity.cc, object.to, object.cc].flatMap(list).slice(0, 200);
  const urls = [...new Set(named.map(idOf).filter((u): u is string => !!u))];
  const readers = new Set<string>();
  for (const url of urls) {
    const id = await ids.idOf(url);
    if (id?.startsWith('@') && id.endsWith(`@${ctx.config.DOMAIN}`)) readers.add(id);
  }
  const followers = actor.followers ?? `${actor._id}/followers`;
  if (urls.includes(followers))
    for (const localId of await ctx.stores.activityPub.followersHereOf(actor._id)) readers.add(localId);
  const circleId = remoteObjectIdFor(idOf(object) ?? String(activity.id), 'circle');
  return {
    to: [circleId],
    cc: [],
    circle: { id: circleId, actorId: actor.handle, name: '', rev: Date.now() },
    recipients: [...readers],
  };
}
