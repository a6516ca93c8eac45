/**
 * Reading a circle timeline: the circle's list newest first (TimelineStore), each entry checked
 * against the live post and the viewer: audience, type, authors the viewer blocks or mutes, and
 * authors who left the circle. Cached per viewer under the circle's and the viewer's stamps.
 */
import { canSee, type Viewer } from '@agora/common/audience';
import { STAMPS } from '@agora/common/cache';
import { encodeCursor, type CircleRecord, type Place } from '@agora/common/db';
import { AS_CONTEXT } from '@agora/common/http';
import type { SocialContext } from '../context';
import { presentPost } from '../views/posts';
import { loadCircle } from '../access/circles';
import { cachesOf, stamped } from './cache';
import { postsById } from './posts';
import { hiddenAuthors } from '../access/suspended';
import { circleShare, counted, suspendedShare } from '../access/suspended-counts';

export interface TimelineQuery {
  types: string[];
  /** A place in the timeline (a cursor, or an ISO time: `parseBefore`): the page starts after it. */
  before?: Place;
  limit: number;
}

/** Where a user keeps the ids of their system circles (`user.circles`). */
export interface OwnCircles {
  circles?: { blocked?: string | null; muted?: string | null } | null;
}

/**
 * Authors a viewer never sees in a timeline: the suspended accounts (everyone's reads skip them,
 * ADR 0028) and members of the viewer's Blocked and Muted circles. `self` is the viewer's user
 * record when the caller already holds it (authentication loaded it): the two circle ids are
 * written once at registration, so any copy of the record names the same ones. Their members are
 * read fresh (or from the cache under their stamps) either way.
 */
export async function excludedAuthors(
  ctx: SocialContext,
  viewer: Viewer,
  self?: OwnCircles,
): Promise<ReadonlySet<string>> {
  const [suspended, own] = await Promise.all([hiddenAuthors(ctx), ownExclusions(ctx, viewer, self)]);
  if (!own.size) return suspended;
  if (!suspended.size) return own;
  return new Set([...suspended, ...own]);
}

async function ownExclusions(ctx: SocialContext, viewer: Viewer, self?: OwnCircles): Promise<Set<string>> {
  if (!viewer.id) return new Set();
  const user: OwnCircles | null = self ?? (await ctx.stores.users.findById(viewer.id));
  const ids = [user?.circles?.blocked, user?.circles?.muted].filter((x): x is string => !!x);
  if (!ids.length) return new Set();
  // Cached while the two circles' members (their stamps) and the viewer are unchanged.
  return stamped(
    ctx,
    cachesOf(ctx).excluded,
    [STAMPS.viewer(viewer.id), ...ids.map(STAMPS.circle)],
    `${viewer.id}|${ids.join('|')}`,
    async () => new Set((await Promise.all(ids.map((id) => ctx.stores.circles.memberIds(id)))).flat()),
  );
}

/** What the route already loaded for this request, so the page does not read it again. */
export interface TimelineKnown {
  /** The circle as loaded for the access check. */
  circle?: CircleRecord;
  /** The viewer's own user record (see excludedAuthors). */
  self?: OwnCircles;
}

/**
 * The page from the stamped page cache: valid while the circle (its list, posts and members),
 * the viewer (memberships, blocks, mutes, reactions) and the suspended accounts are unchanged.
 */
export async function cachedTimeline(
  ctx: SocialContext,
  viewer: Viewer,
  circle: CircleRecord,
  q: TimelineQuery,
  self?: OwnCircles,
) {
  const circleId = circle.id;
  const pages = cachesOf(ctx).pages;
  // A page that is not kept is built from the circle the route checked access on. A kept one
  // reads the circle after the stamps of its key (a circle loaded before them could be older
  // than the key says, and would then be served until the next change).
  if (!pages.enabled) return circleTimeline(ctx, viewer, circleId, q, { circle, ...(self ? { self } : {}) });
  // The suspended accounts too: a suspension or a restore changes every page that shows them.
  const stamps = [
    STAMPS.circle(circleId),
    STAMPS.suspended,
    ...(viewer.id ? [STAMPS.viewer(viewer.id)] : []),
  ];
  const key = [
    circleId,
    viewer.id ?? '',
    viewer.isAdmin ? 'a' : '',
    q.types.join(','),
    q.before ? `${q.before.at}.${q.before.id}` : '',
    q.limit,
  ].join('|');
  return stamped(ctx, pages, stamps, key, () =>
    circleTimeline(ctx, viewer, circleId, q, self ? { self } : {}),
  );
}

export async function circleTimeline(
  ctx: SocialContext,
  viewer: Viewer,
  circleId: string,
  q: TimelineQuery,
  known: TimelineKnown = {},
) {
  const domain = ctx.config.DOMAIN;
  // The list's counters and first entries are read while the circle (access) and the viewer load.
  const opened = ctx.stores.timelines.open(circleId, q.before);
  const [circle, excluded, share] = await Promise.all([
    known.circle ?? loadCircle(ctx, circleId, { cached: true }),
    excludedAuthors(ctx, viewer, known.self),
    suspendedShare(ctx),
  ]);
  const local = !!viewer.id && viewer.local;
  const members = new Set((circle.members ?? []).map((m) => m.id));
  const types = q.types.length ? new Set(q.types) : null;
  const page = await ctx.stores.timelines.page(
    circleId,
    members,
    (p) =>
      !excluded.has(p.actorId) &&
      (!types || types.has(p.type ?? 'Note')) &&
      canSee({ to: p.to, actorId: p.actorId }, viewer, domain),
    {
      ...(q.before ? { before: q.before } : {}),
      limit: q.limit,
      local,
      load: (ids) => postsById(ctx, ids),
      opened,
    },
  );
  // A post nobody reacted to holds no reaction of the viewer's: only the others are read.
  const mine = viewer.id
    ? await ctx.stores.reacts.mineOn(
        viewer.id,
        page.items.filter((p) => p.reactCount !== 0).map((p) => p.id),
      )
    : new Map<string, string>();
  const items = page.items
    .map((p) => counted(share, p))
    .map((p) => presentPost(p as never, viewer, domain, { myReact: mine.get(p.id) ?? null }));
  return {
    '@context': AS_CONTEXT,
    type: 'OrderedCollectionPage',
    // The list's counters less the suspended accounts' posts in it (ADR 0028): no read of the list.
    totalItems: Math.max(0, page.total - circleShare(share, circleId, local)),
    orderedItems: items,
    ...(page.next ? { nextCursor: encodeCursor(page.next) } : {}),
  };
}
