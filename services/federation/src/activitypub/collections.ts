/**
 * A local user's outbox (Creates of their public posts, and the Announce each of their shares
 * is: ADR 0024), followers (local and remote, by URL)
 * and following (the members of their Following circle, by URL) as paged OrderedCollections,
 * and a public post by its URL. Only what anyone may read is shown, as these answer unsigned
 * GETs: followers are listed when the user's profile is public, following when their Following
 * circle is (it is addressed to its owner alone unless they widen it); otherwise the collection
 * has no items and no count.
 */
import type { PostDoc, UserRecord } from '@agora/common/db';
import type { FederationContext } from '../context';
import { noteOf, orderedCollection, replyNoteOf, userActorUrls } from './documents';
import { idMap, localIdOf, localUrlOf } from './ids';
import { announceOf } from './outbound-share';
import { AP_CONTENT_CONTEXT, AP_CONTEXT, AP_PUBLIC } from './vocab';

type Json = Record<string, unknown>;
export const PAGE_SIZE = 20;
/** Pages jumped to by number deeper than this answer empty; the `next` links carry a cursor, so never end. */
const MAX_PAGE = 50;

function slice<T>(all: T[], index: number) {
  const items = all.slice((index - 1) * PAGE_SIZE, index * PAGE_SIZE);
  return { items, next: all.length > index * PAGE_SIZE };
}

/** Where an outbox page starts: after the post published at `at` with id `id` (the `before` query). */
export interface OutboxCursor {
  at: number;
  id: string;
}

export function parseCursor(raw: unknown): OutboxCursor | undefined {
  if (typeof raw !== 'string' || raw.length > 300) return undefined;
  const m = /^(\d{1,15})_(post:[^@\s]+@[^@\s/]+)$/.exec(raw);
  return m ? { at: Number(m[1]), id: m[2]! } : undefined;
}

export async function outboxPage(
  ctx: FederationContext,
  user: UserRecord,
  index?: number,
  before?: OutboxCursor,
): Promise<Json> {
  const { outbox, url } = userActorUrls(ctx, user);
  if (!index) return orderedCollection(outbox, user.publicPostCount ?? 0, undefined);
  const scope = { authors: [user.id], audiences: ['@public'] };
  let page: { items: PostDoc[]; next: boolean };
  if (before) {
    const posts = await ctx.stores.posts.pullFor({ ...scope, before, limit: PAGE_SIZE + 1 });
    page = { items: posts.slice(0, PAGE_SIZE), next: posts.length > PAGE_SIZE };
  } else {
    const limit = Math.min(index, MAX_PAGE) * PAGE_SIZE + 1;
    page = slice(index > MAX_PAGE ? [] : await ctx.stores.posts.pullFor({ ...scope, limit }), index);
  }
  const last = page.items.at(-1);
  const next =
    page.next && last
      ? `${outbox}?page=${index + 1}&before=${new Date(last.publishedAt).getTime()}_${encodeURIComponent(last.id)}`
      : false;
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const activities = await Promise.all(
    page.items.map(async (post) => {
      // A share shows as the Announce it was sent as (ADR 0024), as Mastodon shows a reblog.
      const announce = await announceOf(ctx, ids, post, url);
      if (announce) return announce;
      const object = await noteOf(ctx, post);
      return {
        id: `${String(object.id)}#create`,
        type: 'Create',
        actor: url,
        published: object.published,
        to: [AP_PUBLIC],
        cc: object.cc,
        object,
      };
    }),
  );
  return orderedCollection(outbox, user.publicPostCount ?? 0, { items: activities, index, next });
}

function hidden(id: string): Json {
  return { '@context': AP_CONTEXT, id, type: 'OrderedCollection', orderedItems: [] };
}

/** The local users whose Following circle holds the user (a reverse-index read, then their circles). */
async function localFollowersOf(ctx: FederationContext, userId: string): Promise<string[]> {
  const local = `@${ctx.config.DOMAIN}`;
  const held = (await ctx.stores.circles.membershipsOf(userId)).circles.filter((id) => id.endsWith(local));
  const circles = [...(await ctx.stores.circles.liveByIds(held)).values()];
  const owners = await ctx.stores.users.liveByIds([...new Set(circles.map((c) => c.actorId))]);
  return circles
    .filter((c) => owners.get(c.actorId)?.circles?.following === c.id && c.actorId !== userId)
    .map((c) => c.actorId)
    .sort();
}

/** Followers on this server and on others (remote follower rows), by actor URL. */
export async function followersPage(ctx: FederationContext, user: UserRecord, index?: number): Promise<Json> {
  const { followers } = userActorUrls(ctx, user);
  if (user.to !== '@public') return hidden(followers);
  const remote = (await ctx.stores.followers.ofUser(user.id)).map((f) => f.actorId);
  const all = [...new Set([...(await localFollowersOf(ctx, user.id)), ...remote])];
  if (!index) return orderedCollection(followers, all.length, undefined);
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const { items, next } = slice(all, index);
  const urls = await Promise.all(items.map(async (id) => (await ids.urlOf(id)) ?? id));
  return orderedCollection(followers, all.length, { items: urls, index, next });
}

export async function followingPage(ctx: FederationContext, user: UserRecord, index?: number): Promise<Json> {
  const { following } = userActorUrls(ctx, user);
  const circle = user.circles?.following ? await ctx.stores.circles.findById(user.circles.following) : null;
  if (!circle || circle.to !== '@public') return hidden(following);
  // The owner is the circle's first member (their own posts in their timeline): not someone followed.
  const members = (await ctx.stores.circles.memberIds(circle.id)).filter((id) => id !== user.id);
  if (!index) return orderedCollection(following, members.length, undefined);
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const { items, next } = slice(members, index);
  const urls = await Promise.all(items.map(async (id) => (await ids.urlOf(id)) ?? id));
  return orderedCollection(following, members.length, { items: urls, index, next });
}

/**
 * GET /ap/objects/:id: a live public post of this server as a Note (a share as its Announce, ADR
 * 0024), or a reply of this server in a public thread.
 */
export async function objectDocument(ctx: FederationContext, encoded: string): Promise<Json | undefined> {
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  const url = localUrlOf(ctx.config, id);
  if (!url || localIdOf(ctx.config, url) !== id) return undefined;
  if (id.startsWith('reply:')) {
    const reply = await ctx.stores.replies.byId(id);
    if (!reply || reply.deletedAt) return undefined;
    const root = await ctx.stores.posts.byId(reply.target);
    if (!root || root.deletedAt || root.to !== '@public') return undefined;
    if (await anyInactive(ctx, [reply.actorId, root.actorId])) return undefined;
    return { '@context': AP_CONTENT_CONTEXT, ...(await replyNoteOf(ctx, reply)) };
  }
  if (!id.startsWith('post:')) return undefined;
  const post = await ctx.stores.posts.byId(id);
  if (!post || post.deletedAt || post.originDomain || post.to !== '@public') return undefined;
  if (await anyInactive(ctx, [post.actorId])) return undefined;
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const author = await ids.urlOf(post.actorId);
  const announce = author ? await announceOf(ctx, ids, post, author) : undefined;
  if (announce) return { '@context': AP_CONTEXT, ...announce };
  return { '@context': AP_CONTENT_CONTEXT, ...(await noteOf(ctx, post)) };
}

/**
 * Whether one of these local authors is suspended (or deleted): what a suspended account wrote is
 * kept for its restore, and not served meanwhile (ADR 0028). An object fetch is rare: one read of
 * each author's record.
 */
async function anyInactive(ctx: FederationContext, authors: string[]): Promise<boolean> {
  const users = await Promise.all([...new Set(authors)].map((a) => ctx.stores.users.findById(a)));
  // The server actor (`@<domain>`) writes announcements and is no user record: it is never suspended.
  return users.some((u) => !!u && (u.active === false || !!u.deletedAt));
}
