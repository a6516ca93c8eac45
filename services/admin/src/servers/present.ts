/**
 * A known server as the admin sees it (GET /admin/servers): who it is (NodeInfo), whether it
 * answers (last contact, the circuit breaker as the federation service last recorded it: past its
 * `until` an open circuit is half-open, the next delivery being its probe), whether it is blocked,
 * and what waits for it (held deliveries) or was given up (dead ones).
 */
import type { RemoteServerRecord } from '@agora/common/db';

export interface ServerCounts {
  heldDeliveries: number;
  deadDeliveries: number;
}

export function presentServer(row: RemoteServerRecord, counts: ServerCounts, now = new Date()) {
  const c = row.circuit;
  const state = !c || c.state === 'closed' ? 'closed' : c.until && c.until > now ? 'open' : 'half-open';
  const info = row.nodeinfo;
  return {
    domain: row.domain,
    lastSeenAt: row.lastSeenAt ?? null,
    lastSeenVia: row.lastSeenVia ?? null,
    circuit: { state, until: state === 'closed' ? null : (c?.until ?? null) },
    software: info?.software ?? null,
    protocols: info?.protocols ?? [],
    /** Its NodeInfo says it is this software or speaks this protocol (null: not read yet). */
    compatible: info ? info.compatible : null,
    nodeinfoFetchedAt: info?.fetchedAt ?? null,
    nodeinfoError: info?.error ?? null,
    blocked: row.blocked === true,
    blockedAt: row.blockedAt ?? null,
    blockedBy: row.blockedBy ?? null,
    blockReason: row.blockReason ?? null,
    refusedInbound: row.refusedInbound ?? 0,
    ...counts,
    lastPolledAt: row.lastPolledAt,
    pollErrors: row.errorCount,
    lastPollError: row.lastError,
  };
}
