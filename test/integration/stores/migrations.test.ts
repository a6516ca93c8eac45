/**
 * The migration runner on both engines (ADR 0032): pending migrations run in order, once, and are
 * recorded; a second start runs nothing; two runners starting at once on one database run a
 * migration once and both return after it is done; a stale claim is taken over; a claim that
 * never completes fails start with a message naming the migration; a failed migration is not
 * recorded and runs again at the next start.
 */
import {
  MIGRATIONS,
  MigrationTimeout,
  runMigrations,
  type Migration,
  type MigrationLog,
  type MigrationRow,
} from '@agora/common/db';
import type { Collection, Doc, Engine } from '@agora/common/db/engine';
import { engineFixtures, specFor } from '../engine/fixtures';

interface Tally extends Doc {
  runs?: number;
  order?: string[];
}

describe.each(engineFixtures())('migration runner on $name', (fx) => {
  let engine: Engine;
  let tally: Collection<Tally>;
  let records: Collection<MigrationRow>;
  let n = 0;
  beforeAll(async () => {
    engine = await fx.open();
    const spec = specFor({ indexes: [] }, 'tally');
    await engine.ensure([spec, MIGRATIONS]);
    tally = engine.collection<Tally>(spec);
    records = engine.collection<MigrationRow>(MIGRATIONS);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  /** A migration that counts its runs and appends its id to the shared order; `gate` holds it. */
  function counting(name: string, gate?: Promise<void>): Migration {
    const id = `${String(++n).padStart(4, '0')}-${name}-${Date.now().toString(36)}`;
    return {
      id,
      async run(eng) {
        await gate;
        const c = eng.collection<Tally>(tally.spec);
        await c.updateOne({ _id: id }, { $inc: { runs: 1 } }, { upsert: true });
        await c.updateOne({ _id: 'order' }, { $push: { order: id } }, { upsert: true });
      },
    };
  }
  const runs = async (m: Migration) => (await tally.findOne({ _id: m.id }))?.runs ?? 0;

  it('runs pending migrations in order, once, and records each; a second start runs nothing', async () => {
    await tally.deleteOne({ _id: 'order' });
    const ms = [counting('first'), counting('second'), counting('third')];
    const report = await runMigrations(engine, ms);
    expect(report).toEqual({ ran: ms.map((m) => m.id), waited: [] });
    expect((await tally.findOne({ _id: 'order' }))?.order).toEqual(ms.map((m) => m.id));
    for (const m of ms) {
      expect(await runs(m)).toBe(1);
      const row = await records.findOne({ _id: m.id });
      expect(row).toMatchObject({ state: 'done' });
      expect(row?.appliedAt).toBeInstanceOf(Date);
    }
    expect(await runMigrations(engine, ms)).toEqual({ ran: [], waited: [] });
    for (const m of ms) expect(await runs(m)).toBe(1);
    // A later release adds one: only it runs.
    const next = counting('fourth');
    expect(await runMigrations(engine, [...ms, next])).toEqual({ ran: [next.id], waited: [] });
  });

  it('two runners starting at once run a migration once; both return after it is done', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const slow = counting('slow', gate);
    const after = counting('after');
    // The claimed migration is held until the other runner says it is waiting on it.
    const log = {
      info: (_: unknown, msg?: string) => {
        if (msg?.includes('waiting')) open();
      },
      warn: () => undefined,
    } as unknown as MigrationLog;
    // On SQLite the second runner has a connection of its own to the file, as another process
    // would; on FerretDB one engine serves both (one writer per database in a test process).
    const other = fx.name === 'sqlite' ? await fx.open() : engine;
    const first = runMigrations(engine, [slow, after], { pollMs: 20, log });
    const second = runMigrations(other, [slow, after], { pollMs: 20, log });
    const reports = await Promise.all([first, second]);
    if (other !== engine) await other.close();
    expect(await runs(slow)).toBe(1);
    expect(await runs(after)).toBe(1);
    expect(reports.flatMap((r) => r.ran).sort()).toEqual([slow.id, after.id].sort());
    expect(reports.some((r) => r.waited.includes(slow.id))).toBe(true);
    for (const m of [slow, after])
      expect(await records.findOne({ _id: m.id })).toMatchObject({ state: 'done' });
  });

  it('takes over a claim not renewed for longer than staleMs, runs it and records it', async () => {
    const m = counting('stale');
    await records.insertOne({
      _id: m.id,
      state: 'running',
      by: 'a-process-that-died',
      claimedAt: new Date(Date.now() - 11 * 60_000),
    });
    expect(await runMigrations(engine, [m])).toEqual({ ran: [m.id], waited: [] });
    expect(await runs(m)).toBe(1);
    expect(await records.findOne({ _id: m.id })).toMatchObject({ state: 'done' });
  });

  it('fails start with a message naming the migration when another claim never completes', async () => {
    const m = counting('stuck');
    await records.insertOne({ _id: m.id, state: 'running', by: 'another-process', claimedAt: new Date() });
    const run = runMigrations(engine, [m], { waitMs: 150, pollMs: 20 });
    await expect(run).rejects.toBeInstanceOf(MigrationTimeout);
    await expect(runMigrations(engine, [m], { waitMs: 150, pollMs: 20 })).rejects.toThrow(
      new RegExp(`migration ${m.id} is still running in another process`),
    );
    expect(await runs(m)).toBe(0);
  });

  it('a failed migration is not recorded, fails start, and runs again at the next start', async () => {
    const id = `${String(++n).padStart(4, '0')}-flaky-${Date.now().toString(36)}`;
    let attempts = 0;
    const flaky: Migration = {
      id,
      run() {
        attempts++;
        if (attempts === 1) return Promise.reject(new Error('disk full'));
        return Promise.resolve();
      },
    };
    const later = counting('later');
    await expect(runMigrations(engine, [flaky, later])).rejects.toThrow(`migration ${id} failed: disk full`);
    expect(await records.findOne({ _id: id })).toBeNull();
    expect(await runs(later)).toBe(0);
    expect(await runMigrations(engine, [flaky, later])).toEqual({ ran: [id, later.id], waited: [] });
    expect(attempts).toBe(2);
  });
});
