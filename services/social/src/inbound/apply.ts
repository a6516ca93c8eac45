/**
 * What an accepted inbound activity does here. A Note or Article from another server, public or
 * to one of its circles naming recipients here (audience.ts), becomes a remote post (with
 * `originDomain`) fanned out to the local circles that hold its author (and whose owner may read
 * it); Update and Delete of such a post change or remove it; Follow and Undo Follow of a local
 * user add or remove a remote follower (follow.ts); Add, Remove and Delete of the peer's circles
 * keep its cached circles (circles.ts); Update and Delete of the peer's actors refresh or drop
 * them (actors.ts). A peer acts only on its own
 * objects: every object id must be on the signer's domain, and Update/Delete touch only posts
 * that peer sent under the same author. Everything else is recorded as ignored, with the reason.
 */
import { mediaFrom, sensitivityFrom } from '@agora/common/content';
import { DuplicateKeyError } from '@agora/common/db';
import { reindexQuietly } from '../search/indexer';
import { withdrawAccount } from '@agora/common/cache';
import type { SocialContext } from '../context';
import { domainEvent, type DomainEvent } from '@agora/common/messaging';
import { threadHandler } from './threads';
import { applyAncestors } from './ancestors';
import { isHttpUrl } from '@agora/common/validation';
import { follow, undo } from './follow';
import { flagInbound } from './flag';
import { dropAccount, isActorUpdate, updateActor } from './actors';
import { inboundAudience } from './audience';
import { hasAddressing } from './audience-shape';
import { deleteCircle, membership } from './circles';
import { isGroupChange, isGroupMembership } from './group-shape';
import { applyGroupRelay, groupRelayOf, relayEvents } from './group-relay';
import { answerInbound, groupChange, groupMembership, joinInbound, leaveInbound } from './groups';
import { POST_TYPES, belongsTo, contentOf, isObject, objectId, publishedOf, type Json } from './shape';

export interface Inbound {
  type: string;
  actorId: string;
  signerDomain: string;
  activity: Json;
  /** A group post relayed by its group's server (group-relay.ts): that server. */
  relayedBy?: string;
}

export type Outcome = {
  status: 'processed' | 'ignored' | 'rejected';
  reason?: string;
  /** What the processing changed, for the other services (notifications, federation relays). */
  events?: DomainEvent[];
};

const ignored = (reason: string): Outcome => ({ status: 'ignored', reason });
const rejected = (reason: string): Outcome => ({ status: 'rejected', reason });

async function create(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const object = a.activity.object;
  if (!isObject(object)) return rejected('object: an object is required');
  const id = objectId(object);
  if (!belongsTo(id, a.signerDomain)) return rejected("object.id: must be on the signer's domain");
  const type = typeof object.type === 'string' ? object.type : '';
  if (!POST_TYPES.has(type)) return ignored(`Create of ${type || 'an untyped object'} is not processed yet`);
  const author = objectId(object.attributedTo) ?? a.actorId;
  if (author !== a.actorId) return rejected('object.attributedTo: must be the activity actor');
  const audience = await inboundAudience(ctx, a, object);
  if ('status' in audience) return audience;
  const { body, text, mediaType } = contentOf(object);
  // A share (a boost, ADR 0024): the text it quotes is the original's, so it names (mentions)
  // no one of its own.
  const shareOf = typeof object.shareOf === 'string' && object.shareOf.length <= 2000 ? object.shareOf : null;
  const now = new Date();
  const publishedAt = publishedOf(object, now);
  const actor = isObject(a.activity.actor) ? a.activity.actor : {};
  const name = [actor.name, actor.preferredUsername].find((n): n is string => typeof n === 'string' && !!n);
  try {
    await ctx.stores.posts.createRemote(
      {
        id,
        type,
        actorId: a.actorId,
        actor: { id: a.actorId, name: name?.slice(0, 200) ?? a.actorId, server: `@${a.signerDomain}` },
        originDomain: a.signerDomain,
        server: `@${a.signerDomain}`,
        url: isHttpUrl(object.url) ? object.url : id,
        summary: text,
        source: { content: shareOf ? '' : text, mediaType },
        ...(shareOf ? { shareOf } : {}),
        body,
        // The warning, sensitivity and described media, on either wire (ADR 0021).
        ...sensitivityFrom(object),
        media: mediaFrom(object),
        to: audience.to,
        canReply: audience.to,
        canReact: audience.to,
        // A group's posts are listed for it (GET /groups/:id/posts), as local ones.
        group: audience.to.startsWith('group:') ? audience.to : null,
        publishedAt,
      },
      audience.circles,
    );
  } catch (err) {
    // The port's duplicate (a push and a pull of one post, or a Create after its Update).
    if (err instanceof DuplicateKeyError) return ignored('the post exists already');
    throw err;
  }
  await reindexQuietly(ctx, id, 'Post');
  // For the notifier (mentions of local users, the author's followers here) and the live
  // streams; federation sends nothing for a post that is not this server's.
  return {
    status: 'processed',
    events: [domainEvent('post.created', { postId: id, actorId: a.actorId, to: audience.to, type })],
  };
}

/** The remote post an Update or Delete may touch: sent by this signer, under this author. */
async function ownPost(ctx: SocialContext, a: Inbound, id: string | undefined) {
  if (!belongsTo(id, a.signerDomain)) return undefined;
  const post = await ctx.stores.posts.remoteCopy(id);
  return post && !post.deletedAt && post.originDomain === a.signerDomain && post.actorId === a.actorId
    ? post
    : undefined;
}

async function update(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const object = a.activity.object;
  if (!isObject(object)) return rejected('object: an object is required');
  if (isActorUpdate(a, object)) return updateActor(ctx, a, object);
  // An Update of a post not held here carries the whole object, so it makes the copy: one that
  // overtook its Create (docs/federation.md, "Held deliveries", ordering; the Create, later, is a
  // duplicate), or one whose new audience names someone here ("Audiences").
  const id = objectId(object);
  if (id && !(await ctx.stores.posts.byId(id))) return create(ctx, a);
  return updateCopy(ctx, a, object);
}

/** New content for a copy, and its audience when the activity states one (audience.ts). */
async function updateCopy(ctx: SocialContext, a: Inbound, object: Json): Promise<Outcome> {
  const post = await ownPost(ctx, a, objectId(object));
  if (!post) return ignored('no post of this author from this server has that id');
  const audience = hasAddressing(a.activity, object) ? await inboundAudience(ctx, a, object) : undefined;
  if (audience && 'status' in audience) return audience;
  const moved =
    audience && audience.to !== post.to
      ? { to: audience.to, canReply: audience.to, canReact: audience.to }
      : {};
  const { body, text, mediaType } = contentOf(object);
  await ctx.stores.posts.update(post.id, {
    body,
    summary: text,
    source: { content: text, mediaType },
    ...sensitivityFrom(object),
    media: mediaFrom(object),
    ...moved,
  });
  await reindexQuietly(ctx, post.id, 'Post');
  return { status: 'processed' };
}

/** The peer deleted one of its accounts: what this server holds of it goes at once. */
async function removeActor(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  if (!belongsTo(a.actorId, a.signerDomain)) return ignored('the actor is not on the signing server');
  await withdrawAccount(ctx, a.actorId, a.actorId);
  await dropAccount(ctx, a.actorId);
  return { status: 'processed' };
}

async function remove(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  if (objectId(a.activity.object) === a.actorId) return removeActor(ctx, a);
  const id = objectId(a.activity.object);
  if (id?.startsWith('circle:')) return deleteCircle(ctx, a, id);
  const post = await ownPost(ctx, a, objectId(a.activity.object));
  if (!post) return ignored('no post of this author from this server has that id');
  await ctx.stores.posts.softDeletePost(post.id, a.actorId);
  await reindexQuietly(ctx, post.id, 'Post');
  return { status: 'processed' };
}

const APPLY: Record<string, (ctx: SocialContext, a: Inbound) => Promise<Outcome>> = {
  Create: create,
  Update: (ctx, a) => (isGroupChange(a.activity) ? groupChange(ctx, a) : update(ctx, a)),
  Delete: (ctx, a) => (isGroupChange(a.activity) ? groupChange(ctx, a) : remove(ctx, a)),
  Follow: follow,
  Undo: undo,
  Add: (ctx, a) => (isGroupMembership(a.activity) ? groupMembership(ctx, a) : membership(ctx, a)),
  Remove: (ctx, a) => (isGroupMembership(a.activity) ? groupMembership(ctx, a) : membership(ctx, a)),
  Flag: flagInbound,
  Join: joinInbound,
  Leave: leaveInbound,
  Accept: answerInbound,
  Reject: answerInbound,
};

export async function applyInbound(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  // A group's server relaying a member's post to its group (group-relay.ts).
  const relay = groupRelayOf(a);
  if (relay) return applyGroupRelay(ctx, relay, applyOne);
  // Replies, reactions and relays of them (threads.ts) before posts and follows.
  const thread = await threadHandler(ctx, a);
  if (thread) {
    // A reply may carry the thread above it, fetched from its server: applied first (ancestors.ts).
    const above = await applyAncestors(ctx, a, applyInbound);
    const outcome = await thread(ctx, above.inbound);
    return above.events.length
      ? { ...outcome, events: [...above.events, ...(outcome.events ?? [])] }
      : outcome;
  }
  return relayEvents(ctx, a, await applyOne(ctx, a));
}

function applyOne(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const fn = Object.prototype.hasOwnProperty.call(APPLY, a.type) ? APPLY[a.type] : undefined;
  return fn ? fn(ctx, a) : Promise.resolve(ignored(`${a.type.slice(0, 64)} is not processed yet`));
}
