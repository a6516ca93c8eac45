/**
 * The replicas of one service (SERVICE_URLS may name several): round-robin, with passive health.
 * A replica that refused or dropped a connection is skipped for `downMs` unless every replica
 * is marked down (then the rotation goes on as if none were: one of them may be back, and
 * refusing every request would be worse). There is no active probing: a replica is tried
 * again by the first request after its pause.
 */
export const REPLICA_DOWN_MS = 5_000;

export interface ReplicaPool {
  readonly urls: readonly string[];
  /** The next replica in rotation, skipping those marked down and those in `exclude`. */
  pick(exclude?: ReadonlySet<string>): string | undefined;
  /** The connection to `url` failed: skip it for a while. */
  markDown(url: string): void;
}

export function replicaPool(
  urls: readonly string[],
  opts: { downMs?: number; now?: () => number } = {},
): ReplicaPool {
  if (urls.length === 0) throw new Error('a replica pool needs at least one URL');
  const downMs = opts.downMs ?? REPLICA_DOWN_MS;
  const now = opts.now ?? Date.now;
  const downUntil = new Map<string, number>();
  let next = 0;
  const isDown = (u: string) => (downUntil.get(u) ?? 0) > now();
  return {
    urls,
    pick(exclude) {
      const candidates = urls.filter((u) => !exclude?.has(u));
      if (candidates.length === 0) return undefined;
      const up = candidates.filter((u) => !isDown(u));
      const from = up.length ? up : candidates;
      const chosen = from[next % from.length]!;
      next = (next + 1) % Number.MAX_SAFE_INTEGER;
      return chosen;
    },
    markDown(url) {
      downUntil.set(url, now() + downMs);
    },
  };
}
