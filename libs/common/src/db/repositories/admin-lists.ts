/**
 * The admin lists of a store over the port (spec 4.5: `deleted` = live, deleted or both; a few
 * optional equality filters; newest first): the filter of a `deleted` mode, and the indexes that
 * serve every combination, so the coverage check holds for each query an admin can send.
 */
import type { Direction, Filter, IndexSpec } from '../engine/port';
import type { DeletedMode } from './listing';

export function deletedFilter(mode: DeletedMode): Filter {
  if (mode === 'deleted') return { deletedAt: { $ne: null } };
  if (mode === 'include') return {};
  return { deletedAt: null };
}

/**
 * For each subset of `optional` (with `fixed` always there): live lists test `deletedAt` for
 * equality, so it belongs with the equalities, before the sort; `include` lists do not test it,
 * and `deleted` lists test it by `$ne`, so it comes after the sort and its `_id` tie-break. Their
 * counts (no sort) use the live index, where `deletedAt` follows the equalities. Two indexes
 * per subset: keep `optional` short.
 */
export function adminListIndexes(opts: {
  fixed: readonly string[];
  optional: readonly string[];
  sort: readonly [string, Direction];
  serves: string;
}): IndexSpec[] {
  const [field, dir] = opts.sort;
  const subsets = opts.optional.reduce<string[][]>((acc, f) => [...acc, ...acc.map((s) => [...s, f])], [[]]);
  return subsets.flatMap((subset) => {
    const eq = [...opts.fixed, ...subset].map((f) => [f, 1] as const);
    const by = subset.length ? ` by ${subset.join(' and ')}` : '';
    return [
      { fields: [...eq, ['deletedAt', 1], [field, dir]], serves: `${opts.serves}${by}: live ones; counts` },
      {
        fields: [...eq, [field, dir], ['_id', dir], ['deletedAt', 1]],
        serves: `${opts.serves}${by}: deleted ones, or all`,
      },
    ];
  });
}
