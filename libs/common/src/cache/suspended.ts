/**
 * Which local accounts are suspended (an admin's soft delete, ADR 0028; an owner's own delete
 * too: either way the account is inactive): nobody else reads their content while they are.
 * Asked on every read path, so the set is kept in the process and read again only when its stamp
 * moved (the users store moves it on every delete, restore or removal, in Redis when REDIS_URL is
 * set, so every replica sees it at once). While the stamp store cannot answer, the cached set is
 * trusted for a few seconds, as for blocked domains.
 *
 * The stamp is read at most once per request: within one request's async context (the one its
 * request id lives in, `logger/context.ts`) every check answers from the set that request read
 * first, so a search verifying 500 candidates, or a page of posts, costs one stamp read (one
 * Redis `MGET` in the cluster), not one per item. Staleness stays bounded by the request: a
 * request that began before a suspension may finish with the set it read; the next request on
 * any replica reads the moved stamp. Outside a request (a consumer) every check reads the stamp.
 */
import { logContext } from '../logger/context';
import { STAMPS, type StampStore } from './stamps';

export interface SuspendedAccounts {
  /** The ids of the suspended accounts (never empty-handed: an empty set when there are none). */
  ids(): Promise<ReadonlySet<string>>;
  /** Whether any of these ids (authors) is suspended. */
  anyOf(...ids: Array<string | null | undefined>): Promise<boolean>;
}

const FALLBACK_TTL_MS = 5_000;

/**
 * The set's source: the inactive local accounts and the other servers' actors their server
 * suspended (an Update marked `suspended`, ADR 0028); a change to either moves the stamp.
 */
export function suspendedSource(stores: {
  users: { suspendedIds(): Promise<string[]> };
  remoteSuspensions: { ids(): Promise<string[]> };
}): { suspendedIds(): Promise<string[]> } {
  return {
    async suspendedIds() {
      const [local, remote] = await Promise.all([
        stores.users.suspendedIds(),
        stores.remoteSuspensions.ids(),
      ]);
      return [...local, ...remote];
    },
  };
}

/** The scope a check is asked in: the current request's context object, when there is one. */
export type ScopeOf = () => object | undefined;

const requestScope: ScopeOf = () => logContext.getStore();

export function suspendedAccounts(
  source: { suspendedIds(): Promise<string[]> },
  stamps: Pick<StampStore, 'read'>,
  scopeOf: ScopeOf = requestScope,
): SuspendedAccounts {
  // The set each request read first (weakly held: it goes with the request's context).
  const perScope = new WeakMap<object, Promise<ReadonlySet<string>>>();
  let cached: { stamp: number | null; at: number; ids: ReadonlySet<string> } | undefined;
  let loading: { stamp: number | null; set: Promise<ReadonlySet<string>> } | undefined;

  function ids(): Promise<ReadonlySet<string>> {
    const scope = scopeOf();
    if (!scope) return current();
    let set = perScope.get(scope);
    if (!set) {
      set = current();
      perScope.set(scope, set);
      // A failed read is not kept: the request's next check tries again.
      set.catch(() => perScope.delete(scope));
    }
    return set;
  }

  async function current(): Promise<ReadonlySet<string>> {
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
