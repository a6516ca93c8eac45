/**
 * The drainer (docs/federation.md, "Held deliveries"): sends what is held for a server, in the
 * order it was planned, one at a time, as soon as it is due: at its retry time, or at once when
 * the server is heard from again (peers.ts releases it). One replica drains a server at a time
 * (a lease on its row). A later activity about an object never goes before an earlier one still
 * waiting. While the server's circuit is open nothing is sent, except one probe every
 * FEDERATION_PROBE_SECONDS: the oldest held delivery, sent once more without counting against its
 * attempts; its success (or any answer that shows the server is up) closes the circuit and the
 * rest follows at once, well before the cool-down would have ended.
 *
 * A sweep every few seconds finds every server holding deliveries (also those held by another
 * replica, or before a restart), so nothing held depends on a timer of a process that died.
 */
import type { FederationContext } from '../context';
import { attemptDelivery } from './attempt';
import type { DeliveryJob } from './job';
import { settle } from './settle';
import type { ParkedDeliveryRecord } from '@agora/common/db';

const SWEEP_MS = 5_000;
const LEASE_MS = 60_000;
const BATCH = 50;
/** Dead deliveries are kept this long for the admin to see. */
const DEAD_RETENTION_MS = 30 * 24 * 3600_000;

export interface Drainer {
  wake(domain: string, at?: number): void;
  /** One sweep: every server holding deliveries is drained or probed. */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Sends a domain's due held deliveries in order; returns when it next has one due (epoch ms).
 * `stopping` ends it between two sends (the process is shutting down; the rest stays held).
 */
export async function drainDomain(
  ctx: FederationContext,
  domain: string,
  stopping: () => boolean = () => false,
): Promise<number | undefined> {
  const held = ctx.stores.parkedDeliveries;
  if (await ctx.peers.blocks.isBlocked(domain)) {
    const n = await held.buryAll(domain, 'dropped: the domain is blocked');
    if (n) ctx.logger.info({ domain, dropped: n }, 'held deliveries to a blocked domain dropped');
    return undefined;
  }
  const servers = ctx.stores.remoteServers;
  let lease = Date.now() + LEASE_MS;
  if (!(await servers.claimDrain(domain, new Date(), new Date(lease)))) return undefined;
  let next: number | undefined;
  try {
    const waiting = new Set<string>();
    let after: { seq: string; id: string } | undefined;
    for (;;) {
      const rows = await held.heldOf(domain, BATCH, after);
      for (const row of rows) {
        after = { seq: row.seq, id: row._id };
        if (waiting.has(row.objectKey)) continue;
        const due = row.notBefore.getTime();
        if (due > Date.now()) {
          waiting.add(row.objectKey);
          next = Math.min(next ?? due, due);
          continue;
        }
        if (stopping()) return undefined;
        if ((await ctx.federation.breaker.check(domain)).open) return undefined; // the probe's turn
        if (Date.now() > lease - LEASE_MS / 2) {
          lease = Date.now() + LEASE_MS;
          await servers.renewDrain(domain, new Date(lease));
        }
        if ((await sendHeld(ctx, row)) === 'retry') waiting.add(row.objectKey);
      }
      if (rows.length < BATCH) return next;
    }
  } finally {
    await servers.releaseDrain(domain);
  }
}

async function sendHeld(ctx: FederationContext, row: ParkedDeliveryRecord) {
  const job = JSON.parse(row.job) as DeliveryJob;
  return settle(ctx, job, await attemptDelivery(ctx, job), {
    key: row._id,
    objectKey: row.objectKey,
    plannedAt: row.seq,
    attempts: row.attempts + 1,
    parked: true,
  });
}

/**
 * The half-open probe of an open circuit: the oldest held delivery, sent once more. Its attempts
 * are not counted (a long outage must not use them up); a transient answer leaves everything as
 * it was. Returns whether the server answered.
 */
export async function probe(ctx: FederationContext, domain: string): Promise<boolean> {
  const [row] = await ctx.stores.parkedDeliveries.heldOf(domain, 1);
  if (!row) return false;
  const job = JSON.parse(row.job) as DeliveryJob;
  const sent = await attemptDelivery(ctx, job);
  ctx.logger.info({ domain, status: sent.status }, 'probe of an open circuit');
  if (sent.verdict.outcome === 'transient') return false;
  // It answered: record the outcome of this delivery (closing the circuit releases the rest).
  await settle(ctx, job, sent, {
    key: row._id,
    objectKey: row.objectKey,
    plannedAt: row.seq,
    attempts: row.attempts + 1,
    parked: true,
  });
  return true;
}

export function startDrainer(ctx: FederationContext): Drainer {
  let stopped = false;
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();

  const run = (domain: string): void => {
    if (stopped) return;
    if (running.has(domain)) {
      again.add(domain);
      return;
    }
    const job = drainDomain(ctx, domain, () => stopped)
      .then((next) => {
        if (next !== undefined) wake(domain, next);
      })
      .catch((err: Error) => ctx.logger.warn({ domain, err: err.message }, 'drain failed'))
      .finally(() => {
        running.delete(domain);
        if (again.delete(domain)) run(domain);
      });
    running.set(domain, job);
  };

  const wake = (domain: string, at?: number): void => {
    if (stopped) return;
    const delay = (at ?? 0) - Date.now();
    if (delay <= 0) return run(domain);
    const set = timers.get(domain);
    if (set && set.at <= at!) return;
    if (set) clearTimeout(set.timer);
    const timer = setTimeout(() => {
      timers.delete(domain);
      run(domain);
    }, delay);
    timer.unref();
    timers.set(domain, { at: at!, timer });
  };

  const probeEveryMs = ctx.config.FEDERATION_PROBE_SECONDS * 1000;
  async function sweep(): Promise<void> {
    for (const domain of await ctx.stores.parkedDeliveries.domainsHolding()) {
      const view = await ctx.federation.breaker.inspect(domain);
      if (view.state !== 'open') {
        run(domain);
        continue;
      }
      const now = new Date();
      if (await ctx.stores.remoteServers.claimProbe(domain, now, new Date(now.getTime() + probeEveryMs)))
        await probe(ctx, domain).catch((err: Error) =>
          ctx.logger.warn({ domain, err: err.message }, 'probe failed'),
        );
    }
    await ctx.stores.parkedDeliveries.purgeDead(new Date(Date.now() - DEAD_RETENTION_MS));
  }

  let sweeping: Promise<void> | undefined;
  const tick = setInterval(() => {
    sweeping ??= sweep()
      .catch((err: Error) => ctx.logger.warn({ err: err.message }, 'held deliveries sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
  }, SWEEP_MS);
  tick.unref();
  ctx.peers.setWake(wake);

  return {
    wake,
    sweep,
    async stop() {
      stopped = true;
      clearInterval(tick);
      for (const { timer } of timers.values()) clearTimeout(timer);
      await sweeping;
      await Promise.all(running.values());
    },
  };
}
