/**
 * The migration runner (ADR 0032): at start, after the collections are ensured, every migration
 * not yet recorded `done` in `migrations` runs, in order, once per database however many
 * processes start at once (the cluster's replicas on one SQLite file or one MongoDB).
 *
 * A process claims a migration by inserting its record as `running` (the `_id` is the
 * migration's id, so one insert wins; the others get DuplicateKeyError). The winner runs it,
 * renewing its claim while it runs, and marks it `done`; if it fails, it drops its claim and
 * start fails. The others poll until the record is `done`, then go on to the next one. A claim
 * not renewed for `staleMs` (its process died) is taken over by one waiter (a conditional update
 * on the old holder); a waiter that sees no `done` within `waitMs` fails start with a message
 * naming the migration. A migration is idempotent, so one re-run after a crash is harmless.
 */
import { randomUUID } from 'node:crypto';
import { DuplicateKeyError, type Collection, type Engine } from '../engine/port';
import { MIGRATIONS, type Migration, type MigrationLog, type MigrationRow } from './migration';

export interface RunOptions {
  log?: MigrationLog;
  /** A claim not renewed for this long is taken over (default 10 minutes). */
  staleMs?: number;
  /** How often a running claim is renewed (default a third of `staleMs`). */
  renewMs?: number;
  /** How long a process waits for another's migration before start fails (default 30 minutes). */
  waitMs?: number;
  /** How often a waiting process looks (default 1 s). */
  pollMs?: number;
}

export interface RunReport {
  /** The migrations this call ran, in order. */
  ran: string[];
  /** The ones another process ran while this one waited. */
  waited: string[];
}

/** Another process's migration did not complete within the wait. */
export class MigrationTimeout extends Error {
  constructor(
    readonly migration: string,
    waitedMs: number,
  ) {
    super(
      `migration ${migration} is still running in another process after ${Math.round(waitedMs / 1000)} s; ` +
        `start stopped (look at that process's log; its claim is taken over once not renewed)`,
    );
    this.name = 'MigrationTimeout';
  }
}

const quiet: MigrationLog = { info: () => undefined, warn: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The migrations of `migrations` not recorded `done` in this database, in order: one read by
 * `_id`, the check every process makes at start before it uses the stores (`Stores.ready`). A
 * database whose `migrations` collection does not exist yet (a fresh SQLite file no process has
 * prepared) has them all pending.
 */
export async function pendingMigrations(engine: Engine, migrations: readonly Migration[]): Promise<string[]> {
  const ids = migrations.map((m) => m.id);
  if (!ids.length) return [];
  if (!(await engine.names()).includes(MIGRATIONS.name)) return ids;
  const rows = await engine.collection<MigrationRow>(MIGRATIONS).find({ _id: { $in: ids } });
  const done = new Set(rows.filter((r) => r.state === 'done').map((r) => r._id));
  return ids.filter((id) => !done.has(id));
}

/** `migrations` must exist already: the caller ensures it with the other collections (Stores.prepare). */
export async function runMigrations(
  engine: Engine,
  migrations: readonly Migration[],
  opts: RunOptions = {},
): Promise<RunReport> {
  const staleMs = opts.staleMs ?? 10 * 60_000;
  const ctx: Ctx = {
    engine,
    records: engine.collection<MigrationRow>(MIGRATIONS),
    log: opts.log ?? quiet,
    me: randomUUID(),
    staleMs,
    renewMs: opts.renewMs ?? Math.max(1, Math.floor(staleMs / 3)),
    waitMs: opts.waitMs ?? 30 * 60_000,
    pollMs: opts.pollMs ?? 1000,
  };
  const report: RunReport = { ran: [], waited: [] };
  for (const m of migrations) {
    const outcome = await settle(ctx, m);
    if (outcome === 'ran') report.ran.push(m.id);
    if (outcome === 'waited') report.waited.push(m.id);
  }
  return report;
}

interface Ctx {
  engine: Engine;
  records: Collection<MigrationRow>;
  log: MigrationLog;
  /** This runner's claim token. */
  me: string;
  staleMs: number;
  renewMs: number;
  waitMs: number;
  pollMs: number;
}

/** Runs `m` here, or waits for the process that does; resolves once it is recorded done. */
async function settle(ctx: Ctx, m: Migration): Promise<'ran' | 'waited' | 'done'> {
  const started = Date.now();
  let waited = false;
  for (;;) {
    const row = await ctx.records.findOne({ _id: m.id });
    if (row?.state === 'done') return waited ? 'waited' : 'done';
    if (!row) {
      if (await claim(ctx, m)) {
        if (await runClaimed(ctx, m)) return 'ran';
        waited = true;
      }
      continue; // another process inserted it first (or took it over): look again
    }
    if (Date.now() - row.claimedAt.getTime() > ctx.staleMs) {
      // Taken over only if the stale holder still holds it (one waiter wins).
      const took = await ctx.records.updateOne(
        { _id: m.id, state: 'running', by: row.by },
        { $set: { by: ctx.me, claimedAt: new Date() } },
      );
      if (took.matched === 1) {
        ctx.log.warn({ migration: m.id, from: row.by }, 'migration: stale claim taken over');
        if (await runClaimed(ctx, m)) return 'ran';
        waited = true;
      }
      continue;
    }
    if (!waited) ctx.log.info({ migration: m.id }, 'migration: another process runs it; waiting');
    waited = true;
    if (Date.now() - started >= ctx.waitMs) throw new MigrationTimeout(m.id, Date.now() - started);
    await sleep(ctx.pollMs);
  }
}

async function claim(ctx: Ctx, m: Migration): Promise<boolean> {
  try {
    await ctx.records.insertOne({ _id: m.id, state: 'running', by: ctx.me, claimedAt: new Date() });
    return true;
  } catch (err) {
    if (err instanceof DuplicateKeyError) return false;
    throw err;
  }
}

/** Runs a migration this process claimed; false when its claim was taken over meanwhile. */
async function runClaimed(ctx: Ctx, m: Migration): Promise<boolean> {
  const mine = { _id: m.id, state: 'running', by: ctx.me } as const;
  ctx.log.info({ migration: m.id }, 'migration: running');
  const renew = setInterval(() => {
    ctx.records.updateOne(mine, { $set: { claimedAt: new Date() } }).catch(() => undefined);
  }, ctx.renewMs);
  renew.unref();
  try {
    await m.run(ctx.engine, ctx.log);
  } catch (err) {
    clearInterval(renew);
    // Dropped so the next start runs it again at once.
    await ctx.records.deleteOne(mine).catch(() => undefined);
    throw new Error(`migration ${m.id} failed: ${(err as Error).message}`, { cause: err });
  }
  clearInterval(renew);
  const done = await ctx.records.updateOne(mine, { $set: { state: 'done', appliedAt: new Date() } });
  if (done.matched !== 1) {
    // Taken over while it ran (no renewal landed for staleMs): the other process runs it again
    // (idempotent) and records it; this one waits for that like any other.
    ctx.log.warn(
      { migration: m.id },
      'migration: claim taken over while it ran; waiting for the other process',
    );
    return false;
  }
  ctx.log.info({ migration: m.id }, 'migration: done');
  return true;
}
