/** The `deleted` modes every admin list shares (spec 4.5). */

/** `live` (default): not deleted; `deleted`: soft-deleted only; `include`: both. */
export type DeletedMode = 'live' | 'deleted' | 'include';

export function deletedClause(mode: DeletedMode): Record<string, unknown> {
  if (mode === 'deleted') return { deletedAt: { $ne: null } };
  if (mode === 'include') return {};
  return { deletedAt: null };
}
