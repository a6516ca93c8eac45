/** Reading a circle timeline: one indexed query on the precomputed rows, then the posts (cached by id). */
import { AS_CONTEXT, readableAudiences, STAMPS, type Runtime, type Viewer } from '@agora/common';
import { presentPost } from '../views/posts';
import { cachesOf, stamped } from './cache';
import { postsById } from './posts';

export interface TimelineQuery {
  types: string[];
  before?: Date;
  limit: number;
}

/** Authors a viewer never wants to see: members of their Blocked and Muted circles. */
export async function excludedAuthors(rt: Runtime, viewer: Viewer): Promise<string[]> {
  if (!viewer.id) return [];
  const user = await rt.repos.users.findById(viewer.id);
  const ids = [user?.circles?.blocked, user?.circles?.muted].filter((x): x is string => !!x);
  // One equality lookup per circle: FerretDB pushes equality down to its storage, not `$in`.
  const circles = await Promise.all(
    ids.map((id) => rt.repos.models.Circle.findOne({ id }, { members: 1 }).lean()),
  );
  return circles.flatMap((c) => (c?.members ?? []).map((m) => m.id));
}

/**
 * The page from the stamped page cache: valid while the circle (its rows, posts and members)
 * and the viewer (memberships, blocks, mutes, reactions) are unchanged.
 */
export async function cachedTimeline(rt: Runtime, viewer: Viewer, circleId: string, q: TimelineQuery) {
  const stamps = [STAMPS.circle(circleId), ...(viewer.id ? [STAMPS.viewer(viewer.id)] : [])];
  const key = [
    circleId,
    viewer.id ?? '',
    viewer.isAdmin ? 'a' : '',
    q.types.join(','),
    q.before?.toISOString() ?? '',
    q.limit,
  ].join('|');
  return stamped(rt, cachesOf(rt).pages, stamps, key, () => circleTimeline(rt, viewer, circleId, q));
}

export async function circleTimeline(rt: Runtime, viewer: Viewer, circleId: string, q: TimelineQuery) {
  const domain = rt.config.DOMAIN;
  const excluded = await excludedAuthors(rt, viewer);
  const filter: Record<string, unknown> = {
    circleId,
    $or: [
      { to: { $in: readableAudiences(viewer, domain) } },
      ...(viewer.id ? [{ authorId: viewer.id }] : []),
    ],
    ...(excluded.length ? { authorId: { $nin: excluded } } : {}),
    ...(q.types.length ? { type: { $in: q.types } } : {}),
  };
  const { TimelineEntry, React } = rt.repos.models;
  // The count runs beside the page, not before it.
  const [total, { rows, byId, mine }] = await Promise.all([
    TimelineEntry.countDocuments(filter),
    (async () => {
      const rows = await TimelineEntry.find(q.before ? { ...filter, publishedAt: { $lt: q.before } } : filter)
        .sort({ publishedAt: -1 })
        .limit(q.limit)
        .lean();
      const ids = rows.map((x) => x.postId);
      const [byId, reacts] = await Promise.all([
        postsById(rt, ids),
        viewer.id && ids.length
          ? React.find({ actorId: viewer.id, target: { $in: ids } }, { target: 1, emoji: 1 }).lean()
          : [],
      ]);
      return { rows, byId, mine: new Map(reacts.map((x) => [x.target, x.emoji])) };
    })(),
  ]);
  const ids = rows.map((x) => x.postId);
  const items = ids
    .map((id) => byId.get(id))
    .filter((p): p is NonNullable<typeof p> => !!p)
    .map((p) => presentPost(p as never, viewer, domain, { myReact: mine.get(p.id) ?? null }));
  const last = rows[rows.length - 1];
  return {
    '@context': AS_CONTEXT,
    type: 'OrderedCollectionPage',
    totalItems: total,
    orderedItems: items,
    ...(rows.length === q.limit && last ? { nextCursor: last.publishedAt.toISOString() } : {}),
  };
}
