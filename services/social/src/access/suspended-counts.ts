/**
 * What the suspended accounts count for (ADR 0028): their live posts in the tier lists (`/posts`),
 * in each group's list and in each circle's timeline (by the tier it counts them under), their
 * live replies by thread root (a post's `replyCount`) and their
 * reactions by target and emoji (`reactCount`, `reactSummary`). Totals and counters are
 * counters, kept as the content was written; while an account is suspended a reader subtracts
 * its share instead of counting the rest, so a page costs what it did.
 *
 * The share is read once per suspended set (its stamp moved: a suspension, a restore) from the
 * accounts' own indexes (`(actorId, deletedAt)` on posts and replies, `actorId` on reactions),
 * so it costs what the suspended accounts wrote, not what the lists hold, and is read again
 * after SHARE_TTL_MS at most: a suspended account writes nothing, but its content may still be
 * deleted meanwhile (a moderator, a peer's Delete), which the counters already reflect.
 */
import { tierTag } from '@agora/common/db';
import type { SocialContext } from '../context';
import { hiddenAuthors } from './suspended';

const SHARE_TTL_MS = 30_000;
/** Accounts read at once (each three indexed reads). */
const ACCOUNTS_AT_ONCE = 8;

type ByType = Map<string, number>;

export interface SuspendedShare {
  /** Local posts by tier (`public`, `server`) and type. */
  tiers: Map<string, ByType>;
  /** Posts by group and type. */
  groups: Map<string, ByType>;
  /** Posts in each circle's timeline by the tier it counts them under (`public`, `server`). */
  circles: Map<string, ByType>;
  /** Live replies by thread root. */
  replies: Map<string, number>;
  /** Reactions by target and emoji. */
  reacts: Map<string, ByType>;
}

const EMPTY: SuspendedShare = {
  tiers: new Map(),
  groups: new Map(),
  circles: new Map(),
  replies: new Map(),
  reacts: new Map(),
};

const SHARES = new WeakMap<
  SocialContext,
  { of: ReadonlySet<string>; at: number; share: Promise<SuspendedShare> }
>();

function add(map: Map<string, ByType>, key: string, sub: string): void {
  const inner = map.get(key) ?? new Map<string, number>();
  map.set(key, inner);
  inner.set(sub, (inner.get(sub) ?? 0) + 1);
}

async function read(ctx: SocialContext, ids: ReadonlySet<string>): Promise<SuspendedShare> {
  const share: SuspendedShare = {
    tiers: new Map(),
    groups: new Map(),
    circles: new Map(),
    replies: new Map(),
    reacts: new Map(),
  };
  const domain = ctx.config.DOMAIN;
  const all = [...ids];
  for (let i = 0; i < all.length; i += ACCOUNTS_AT_ONCE)
    await Promise.all(all.slice(i, i + ACCOUNTS_AT_ONCE).map((id) => readAccount(id)));
  return share;

  async function readAccount(id: string): Promise<void> {
    const [posts, replies, reacts] = await Promise.all([
      ctx.stores.posts.allByAuthor(id),
      ctx.stores.replies.liveTargetsByAuthor(id),
      ctx.stores.reacts.allByActor(id),
    ]);
    for (const p of posts) {
      const type = p.type ?? 'Note';
      if (!p.originDomain && p.to === '@public') add(share.tiers, 'public', type);
      if (!p.originDomain && (p.to === '@server' || p.to === `@${domain}`)) add(share.tiers, 'server', type);
      if (p.group) add(share.groups, p.group, type);
      // A timeline counts its entries by tier (`to.public`, `to.server`; timelineAppends).
      const tier = tierTag(p.to, domain);
      if (tier !== 'to.other') for (const c of new Set(p.circles ?? [])) add(share.circles, c, tier.slice(3));
    }
    for (const r of replies)
      if (r.target) share.replies.set(r.target, (share.replies.get(r.target) ?? 0) + 1);
    for (const r of reacts) add(share.reacts, r.target, r.emoji);
  }
}

/** The suspended accounts' share of every counter, for this request's suspended set. */
export async function suspendedShare(ctx: SocialContext): Promise<SuspendedShare> {
  const ids = await hiddenAuthors(ctx);
  if (!ids.size) return EMPTY;
  const known = SHARES.get(ctx);
  if (known && known.of === ids && Date.now() - known.at < SHARE_TTL_MS) return known.share;
  const share = read(ctx, ids);
  const entry = { of: ids, at: Date.now(), share };
  SHARES.set(ctx, entry);
  share.catch(() => {
    if (SHARES.get(ctx) === entry) SHARES.delete(ctx);
  });
  return share;
}

/** How many of `byType`'s entries are of these types (all types when none). */
function ofTypes(byType: ByType | undefined, types: readonly string[] | undefined): number {
  if (!byType) return 0;
  if (!types?.length) return [...byType.values()].reduce((s, n) => s + n, 0);
  return [...new Set(types)].reduce((s, t) => s + (byType.get(t) ?? 0), 0);
}

/** The suspended accounts' posts among these tiers' lists (of these types). */
export function tierShare(
  share: SuspendedShare,
  tiers: readonly string[],
  types?: readonly string[],
): number {
  return tiers.reduce((s, t) => s + ofTypes(share.tiers.get(t), types), 0);
}

/** The suspended accounts' posts in a group's list (of these types). */
export function groupShare(share: SuspendedShare, groupId: string, types?: readonly string[]): number {
  return ofTypes(share.groups.get(groupId), types);
}

/**
 * The suspended accounts' posts a circle timeline's total counts for a viewer: its public ones,
 * and its server ones for a local viewer (TimelineStore.page counts the same tiers).
 */
export function circleShare(share: SuspendedShare, circleId: string, local: boolean): number {
  const byTier = share.circles.get(circleId);
  return (byTier?.get('public') ?? 0) + (local ? (byTier?.get('server') ?? 0) : 0);
}

type Counted = { id: string; replyCount?: unknown; reactCount?: unknown; reactSummary?: unknown };

/**
 * The post with its counters as others may see them: the suspended accounts' replies and
 * reactions taken out of `replyCount`, `reactCount` and `reactSummary` (the same object when
 * they hold none of them).
 */
export function counted<T extends Counted>(share: SuspendedShare, post: T): T {
  const replies = share.replies.get(post.id) ?? 0;
  const reacts = share.reacts.get(post.id);
  if (!replies && !reacts) return post;
  const out: T = { ...post };
  if (replies && typeof post.replyCount === 'number') out.replyCount = Math.max(0, post.replyCount - replies);
  if (reacts) {
    const total = [...reacts.values()].reduce((s, n) => s + n, 0);
    if (typeof post.reactCount === 'number') out.reactCount = Math.max(0, post.reactCount - total);
    if (post.reactSummary && typeof post.reactSummary === 'object') {
      const summary: Record<string, number> = {};
      for (const [emoji, n] of Object.entries(post.reactSummary as Record<string, number>)) {
        const left = n - (reacts.get(emoji) ?? 0);
        if (left > 0) summary[emoji] = left;
      }
      out.reactSummary = summary;
    }
  }
  return out;
}

/** The posts with their counters as others may see them (one share read for the page). */
export async function countedAll<T extends Counted>(ctx: SocialContext, posts: readonly T[]): Promise<T[]> {
  const share = await suspendedShare(ctx);
  return posts.map((p) => counted(share, p));
}
