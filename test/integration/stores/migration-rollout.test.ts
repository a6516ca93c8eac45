/**
 * Migrations during a rollout (ADR 0032, "Every process"), on both engines: a process of the new
 * release that is not social (here notifications) does not touch the stores before the
 * migrations its code relies on are recorded done. It runs them itself when nobody has (so it
 * waits for no other service, and a fresh database starts at once), or waits, not listening,
 * while another process runs them.
 *
 * The gap this closes: migration 0001 re-keys list rows item-first. A process of the new release
 * appending an entry a list already holds under the former `<list>|<item>` key, before 0001
 * moved it, stored a second row under the new key and counted it; the migration then dropped the
 * old row as a duplicate, but the counter stayed one over for good.
 */
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '@agora/common/config';
import { createLogger } from '@agora/common/logger';
import {
  ALL_MIGRATIONS,
  connectDatabase,
  type Database,
  LIST_ENTRIES,
  ListStore,
  MIGRATIONS,
  runMigrations,
  STORE_SPECS,
  type ListEntry,
  type ListEntryRow,
  type MigrationRow,
} from '@agora/common/db';
import type { Collection, Engine } from '@agora/common/db/engine';
import { createApp as createNotifications } from '@agora/notifications';
import { createApp as createSocial } from '@agora/social';
import { engineFixtures, type EngineFixture } from '../engine/fixtures';
import { waitFor } from '../../harness/standalone';

const MIGRATION = ALL_MIGRATIONS[0]!.id;
const T = Date.parse('2026-03-01T12:00:00.000Z');
const LIST = 'timeline:c1';
const entries: ListEntry[] = Array.from({ length: 12 }, (_, i) => ({
  id: `post:${String(i).padStart(3, '0')}`,
  at: new Date(T + i * 1000),
  by: 'user:1',
}));
const dirs: string[] = [];

/** A service's configuration on the fixture's database, logging to a file of its own. */
function configFor(fx: EngineFixture): { config: Config; log: () => string } {
  const dir = mkdtempSync(join(tmpdir(), 'agora-rollout-'));
  dirs.push(dir);
  const logFile = join(dir, 'service.log');
  const where = fx.name === 'sqlite' ? { SQLITE_PATH: fx.location() } : { MONGO_URL: fx.location() };
  const config = loadConfig(
    {},
    { DATA_DIR: dir, ...where, DOMAIN: 'rollout.test', LOG_LEVEL: 'info', LOG_FILE: logFile },
  );
  return { config, log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '') };
}
const local = { port: 0, host: '127.0.0.1' };

/**
 * How the service reaches the database: on SQLite, a connection of its own (another process on
 * the file); on FerretDB, which lets one process write a database (engine/mongo/ferretdb.ts),
 * the test's own connection, shared as standalone shares it (the service's stores are its own).
 */
function reach(fx: EngineFixture, engine: Engine): { shared?: { db: Database } } {
  if (fx.name === 'sqlite') return {};
  return { shared: { db: { engine, ping: () => engine.ping(), close: () => Promise.resolve() } } };
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.each(engineFixtures())('migrations during a rollout on $name', (fx) => {
  let engine: Engine;
  let lists: ListStore;
  let rows: Collection<ListEntryRow>;
  let records: Collection<MigrationRow>;
  beforeAll(async () => {
    engine = await fx.open();
    // The database as the release before 0001 left it: every collection, no migration recorded.
    await engine.ensure(STORE_SPECS);
    lists = new ListStore(engine);
    rows = engine.collection<ListEntryRow>(LIST_ENTRIES);
    records = engine.collection<MigrationRow>(MIGRATIONS);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  /** The list's rows stored under the former `<list>|<item>` key, its counter as they counted. */
  async function preMigrationList(): Promise<void> {
    await rows.deleteMany({ list: LIST });
    await records.deleteOne({ _id: MIGRATION });
    await lists.drop(LIST);
    await lists.append(LIST, entries, ['to.public']);
    const current = await rows.find({ list: LIST });
    await rows.insertEach(current.map((r) => ({ ...r, _id: `${r.list}|${r.item}` })));
    await rows.deleteMany({ _id: { $in: current.map((r) => r._id) } });
    expect(await rows.findOne({ _id: `${LIST}|${entries[0]!.id}` })).not.toBeNull();
  }

  it('a non-social process that starts before the migration ran appends an entry the list holds: counted once', async () => {
    await preMigrationList();
    const { config } = configFor(fx);
    const notifications = createNotifications(config, { ...local, ...reach(fx, engine) });
    await notifications.start();
    await notifications[Symbol.asyncDispose]();
    // What that process then writes: an entry the list already holds (a re-delivered post).
    await lists.append(LIST, [entries[0]!], ['to.public']);
    // Then social's start runs (or finds done) the migrations.
    await runMigrations(engine, ALL_MIGRATIONS);

    const listed: string[] = [];
    for await (const e of lists.newest([LIST])) listed.push(e.id);
    expect(listed.sort()).toEqual(entries.map((e) => e.id).sort());
    expect(await rows.find({ list: LIST })).toHaveLength(entries.length);
    expect(await lists.head(LIST)).toEqual({ count: entries.length, tags: { 'to.public': entries.length } });
    expect(await records.findOne({ _id: MIGRATION })).toMatchObject({ state: 'done' });
  });

  it('while another process runs a migration, a non-social start waits (logged, not listening), then serves', async () => {
    await preMigrationList();
    // Social of the new release has claimed 0001 and is running it.
    await records.insertOne({
      _id: MIGRATION,
      state: 'running',
      by: 'social-replica',
      claimedAt: new Date(),
    });
    const { config, log } = configFor(fx);
    const notifications = createNotifications(config, { ...local, ...reach(fx, engine) });
    let started = false;
    const starting = notifications.start().then(() => (started = true));
    await waitFor(
      () => Promise.resolve(log().includes('migration: another process runs it; waiting')),
      20_000,
    );
    expect(log()).toContain('start waits until the database migrations are done');
    expect(started).toBe(false);
    // Not listening: readiness (and /health) cannot answer yet.
    expect(notifications.url).toBeUndefined();

    await records.updateOne({ _id: MIGRATION }, { $set: { state: 'done', appliedAt: new Date() } });
    await starting;
    try {
      const health = await fetch(`${notifications.url!}/health`);
      expect(health.status).toBe(200);
      // It waited: the record is social's, not a run of its own.
      expect(await records.findOne({ _id: MIGRATION })).toMatchObject({
        state: 'done',
        by: 'social-replica',
      });
    } finally {
      await notifications[Symbol.asyncDispose]();
    }
  });

  it('a fresh database: social and a non-social process starting at once both start (neither waits for the other)', async () => {
    const fresh = engineFixtures().find((f) => f.name === fx.name)!;
    // Several processes on one SQLite file; on FerretDB one process writes a database, so there
    // the two share one connection, as in standalone (but start at once, not social first).
    const db =
      fx.name === 'mongodb'
        ? await connectDatabase({
            url: fresh.location(),
            logger: createLogger({ level: 'silent', service: 'test' }),
          })
        : undefined;
    const shared = db ? { shared: { db } } : {};
    try {
      const social = createSocial(configFor(fresh).config, { ...local, ...shared });
      const notifications = createNotifications(configFor(fresh).config, { ...local, ...shared });
      await Promise.all([notifications.start(), social.start()]);
      try {
        const check = await fresh.open();
        try {
          const done = await check.collection<MigrationRow>(MIGRATIONS).find({});
          expect(done.map((r) => [r._id, r.state])).toEqual(ALL_MIGRATIONS.map((m) => [m.id, 'done']));
        } finally {
          await check.close();
        }
      } finally {
        await notifications[Symbol.asyncDispose]();
        await social[Symbol.asyncDispose]();
      }
    } finally {
      await db?.close();
      await fresh.cleanup();
    }
  });
});
