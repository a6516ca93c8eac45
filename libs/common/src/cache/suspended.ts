/**
 * Which local accounts are suspended (an admin's soft delete, ADR 0028; an owner's own delete
 * too: either way the account is inactive): nobody else reads their content while they are.
 * Asked on every read path, so the set is kept in the process and read again only when its stamp
 * moved (the users store moves it on every delete, restore or removal, in Redis when REDIS_URL is
 * set, so every replica sees it at once). While the stamp store cannot answer, the cached set is
 * trusted for a few seconds, as for blocked domains.
 */
import { STAMPS, type StampStore } from './stamps';

export interface SuspendedAccounts {
  /** The ids of the suspended accounts (never empty-handed: an empty set when there are none). */
  ids(): Promise<ReadonlySet<string>>;
  /** Whether any of these ids (authors) is suspended. */
  anyOf(...ids: Array<string | null | undefined>): Promise<boolean>;
}

const FALLBACK_TTL_MS = 5_000;

export function suspendedAccounts(
  source: { suspendedIds(): Promise<string[]> },
  stamps: Pick<StampStore, 'read'>,
): SuspendedAccounts {
  let cached: { stamp: number | null; at: number; ids: ReadonlySet<string> } | undefined;
  let loading: { stamp: number | null; set: Promise<ReadonlySet<string>> } | undefined;

  async function ids(): Promise<ReadonlySet<string>> {
    const stamp = ((await stamps.read([STAMPS.suspended])) ?? [null])[0] ?? null;
    if (cached && stamp !== null && cached.stamp === stamp) return cached.ids;
    if (cached && stamp === null && Date.now() - cached.at < FALLBACK_TTL_MS) return cached.ids;
    // A read in flight joins only a load begun under the same stamp: one begun before a
    // suspension could answer without it.
    if (loading && loading.stamp === stamp) return loading.set;
    const mine = {
      stamp,
      set: source.suspendedIds().then((list) => {
        const set: ReadonlySet<string> = new Set(list);
        if (!cached || loading === mine) cached = { stamp, at: Date.now(), ids: set };
        return set;
      }),
    };
    loading = mine;
    void mine.set
      .finally(() => {
        if (loading === mine) loading = undefined;
      })
      .catch(() => undefined);
    return mine.set;
  }

  return {
    ids,
    async anyOf(...authors) {
      const set = await ids();
      return set.size > 0 && authors.some((a) => !!a && set.has(a));
    },
  };
}
