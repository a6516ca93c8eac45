/**
 * What another server pulls of our posts (federation, `views/pull.ts`): live local posts of a
 * scope's authors and audiences, newest first by (publishedAt, id), and the ids of those deleted
 * since a date. Each is one read of the posts collection by its pull index (`POSTS`).
 */
import type { Collection, Filter } from '../engine/port';
import type { PostRecord, PullScope } from './post-lists';

type PostRow = PostRecord & { _id: string };

/** The indexed filter of a pull's scope; null when it can match nothing. */
function pullFilter(scope: Pick<PullScope, 'authors' | 'audiences'>): Filter | null {
  const one = (v: readonly string[]) => (v.length === 1 ? v[0]! : { $in: [...v] });
  if (!scope.audiences.length || scope.authors?.length === 0) return null;
  return {
    ...(scope.authors ? { actorId: one(scope.authors) } : {}),
    to: one(scope.audiences),
    originDomain: null,
    deletedAt: null,
  };
}

/**
 * A page of the scope's posts, strictly older than the place `before` when given (a cursor: `next`
 * of the page before), so pages neither skip nor repeat posts of one millisecond.
 */
export async function pullPage(rows: Collection<PostRow>, scope: PullScope): Promise<PostRecord[]> {
  const filter = pullFilter(scope);
  if (!filter) return [];
  if (scope.since) filter.publishedAt = { $gte: scope.since };
  return rows.find(filter, {
    sort: [
      ['publishedAt', -1],
      ['_id', -1],
    ],
    limit: scope.limit,
    ...(scope.before ? { after: [new Date(scope.before.at), scope.before.id] } : {}),
  });
}

/** Ids of the scope's posts deleted since a date (a pull's `tombstones`). */
export async function pullTombstones(
  rows: Collection<PostRow>,
  scope: Pick<PullScope, 'authors' | 'audiences'>,
  since: Date,
): Promise<string[]> {
  const filter = pullFilter(scope);
  if (!filter) return [];
  const found = await rows.find({ ...filter, deletedAt: { $gte: since } }, { fields: ['id'] });
  return found.map((r) => r.id);
}
