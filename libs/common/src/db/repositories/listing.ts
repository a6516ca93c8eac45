/** The `deleted` modes every admin list shares (spec 4.5). */

/** `live` (default): not deleted; `deleted`: soft-deleted only; `include`: both. */
export type DeletedMode = 'live' | 'deleted' | 'include';

export function deletedClause(mode: DeletedMode): Record<string, unknown> {
  if (mode === 'deleted') return { deletedAt: { $ne: null } };
  if (mode === 'include') return {};
  return { deletedAt: null };
}

/**
 * A sort made total: `_id` last (in the direction of the last key) when the sort does not end in
 * it. Collections paged by `page`/`limit` read by offset, and an engine returns documents tied on
 * every sort key in any order, maybe another for the next page's query: page N and N + 1 then
 * overlap and skip (issue 21 item 4). `_id` is the object's id, unique.
 */
export function totalSort(sort: Record<string, 1 | -1>): Record<string, 1 | -1> {
  const keys = Object.keys(sort);
  if (keys.includes('_id')) return sort;
  return { ...sort, _id: sort[keys[keys.length - 1]!] ?? -1 };
}
