/**
 * A backup taken on one engine restores on the other (issue 22, item 4; ADR 0013): a SQLite
 * database seeded through the real stores is backed up by the real job code, restored into a
 * fresh MongoDB database (the run's FerretDB), backed up there and restored into a fresh SQLite
 * file. Each time every document of every archived collection must come back as it was (dates
 * as the same instants, numbers, nulls, nested objects and arrays), and the stores must read the
 * same answers on the target as on the source: a circle's timeline, counters, memberships, a
 * thread, search, notifications, settings. Dates written on MongoDB must lie at declared paths
 * (else SQLite gives them back as strings), and keys that look like Extended JSON must survive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { memoryStampStore } from '@agora/common/cache';
import { loadConfig } from '@agora/common/config';
import { BACKUP_OWN_COLLECTIONS, STORE_SPECS, createStores, type Stores } from '@agora/common/db';
import { openMongo, openSqlite, type Engine } from '@agora/common/db/engine';
import { createLogger } from '@agora/common/logger';
import { createDiskStorage } from '@agora/common/storage';
import { runBackup } from '../../../services/backup/src/backup';
import type { BackupContext } from '../../../services/backup/src/context';
import { JobLease } from '../../../services/backup/src/lease';
import { runRestore } from '../../../services/backup/src/restore/run';
import { mongoUrlFor, uniqueName } from '../../harness/env';
import { readSeeded, seedStores, type Seeded } from '../../harness/seed';
import { allStored, storedDocuments } from '../../harness/stored';

const DOMAIN = 'cross.test';
/** Asks for the jobs; not a user of any of the databases (a restore keeps its requester). */
const REQUESTER = `@operator@${DOMAIN}`;
const ARCHIVED = STORE_SPECS.filter((s) => !BACKUP_OWN_COLLECTIONS.includes(s.name));

const dir = mkdtempSync(join(tmpdir(), 'cross-engine-'));
const config = loadConfig({ DOMAIN, BACKUP_LEASE_SECONDS: '30' });
const logger = createLogger({ level: 'silent', service: 'test' });
const storage = createDiskStorage({ root: join(dir, 'objects') });
const mongoUrls: string[] = [];
const opened: Engine[] = [];

interface Side {
  engine: Engine;
  repos: Stores;
  ctx: BackupContext;
}

async function open(kind: 'sqlite' | 'mongodb', name: string): Promise<Side> {
  let engine: Engine;
  if (kind === 'sqlite') engine = openSqlite({ path: join(dir, `${name}.db`), checkIndexes: true });
  else {
    const url = mongoUrlFor(uniqueName(name));
    mongoUrls.push(url);
    engine = await openMongo({ url, checkIndexes: true });
  }
  opened.push(engine);
  const repos = createStores({ engine, ping: () => engine.ping(), close: () => engine.close() }, DOMAIN);
  // As the social service's start: the collections, then the migrations (recorded, so archived).
  await repos.prepare();
  const ctx = {
    config,
    logger,
    stores: repos,
    storage,
    stamps: memoryStampStore(),
  } as unknown as BackupContext;
  return { engine, repos, ctx };
}

/** Runs a job of `type` to its end as the worker does (queued, leased, finished). */
async function runJob<T>(
  side: Side,
  type: 'backup' | 'restore',
  fields: { archiveKey?: string },
  run: (
    lease: JobLease,
    job: NonNullable<Awaited<ReturnType<Stores['backupJobs']['findById']>>>,
  ) => Promise<T>,
): Promise<T> {
  const jobs = side.repos.backupJobs;
  const queued = await jobs.queue(type, REQUESTER, fields);
  if (!('job' in queued)) throw new Error(`${type}: the slot is taken by ${queued.conflict?._id}`);
  const owner = `test-${type}`;
  if ((await jobs.acquire(queued.job._id, owner, 60_000)) !== 'acquired')
    throw new Error(`${type}: not acquired`);
  const lease = new JobLease(side.ctx, queued.job._id, owner);
  try {
    const out = await run(lease, (await jobs.findById(queued.job._id))!);
    await lease.flush();
    await jobs.finish(queued.job._id, owner, {});
    return out;
  } catch (err) {
    // Ended, so the slot is free for the next test's job.
    await jobs.fail(queued.job._id, owner, (err as Error).message);
    throw err;
  } finally {
    lease.stop();
  }
}

const backUp = (side: Side) => runJob(side, 'backup', {}, (lease) => runBackup(side.ctx, lease));
const restore = (side: Side, archiveKey: string) =>
  runJob(side, 'restore', { archiveKey }, (lease, job) => runRestore(side.ctx, lease, job));

let source: Side;
let seeded: Seeded;
let sourceDocs: Record<string, unknown>;
let sourceReads: unknown;
let mongo: Side;

beforeAll(async () => {
  source = await open('sqlite', 'source');
  seeded = await seedStores(source.repos, DOMAIN);
  sourceDocs = await storedDocuments(source.engine, ARCHIVED);
  sourceReads = await readSeeded(source.repos, seeded);
});

afterAll(async () => {
  for (const engine of opened) await engine.close().catch(() => undefined);
  for (const url of mongoUrls) {
    const conn = await mongoose.createConnection(url).asPromise();
    await conn.db?.dropDatabase();
    await conn.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

test('the seed holds documents in every collection a store declares, read back as written', async () => {
  for (const spec of STORE_SPECS)
    expect([spec.name, await source.repos.collections.count(spec.name)]).not.toEqual([spec.name, 0]);
  // Spot checks that the comparisons below compare something.
  expect(sourceReads).toMatchObject({
    timeline: { ids: [seeded.posts.remote, seeded.posts.bobServer, seeded.posts.bobPublic], total: 3 },
    alice: { postCount: 1 },
    bob: { postCount: 2, publicPostCount: 1 },
    circle: { memberCount: 2 },
    usage: { bytes: 5_000_000_123, files: 1 },
    settings: { ratio: 0.75 },
    thread: [seeded.reply],
    unread: 1,
  });
});

test('SQLite → MongoDB: the archive restores every document as it was, and the stores read the same', async () => {
  const backup = await backUp(source);
  mongo = await open('mongodb', 'cross_mongo');
  const restored = await restore(mongo, backup.archiveKey);
  expect(restored.result.replaced.sort()).toEqual(ARCHIVED.map((s) => s.name).sort());
  expect(await storedDocuments(mongo.engine, ARCHIVED)).toStrictEqual(sourceDocs);
  expect(await readSeeded(mongo.repos, seeded)).toStrictEqual(sourceReads);
});

test('MongoDB → SQLite: the way back restores the same documents, and the stores read the same', async () => {
  const backup = await backUp(mongo);
  const back = await open('sqlite', 'back');
  await restore(back, backup.archiveKey);
  expect(await storedDocuments(back.engine, ARCHIVED)).toStrictEqual(sourceDocs);
  expect(await readSeeded(back.repos, seeded)).toStrictEqual(sourceReads);
});

/** Paths holding a Date in a document (through arrays, as `dates` declares them). */
function datePaths(v: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (Object.prototype.toString.call(v) === '[object Date]') out.add(prefix);
  else if (Array.isArray(v)) for (const x of v) datePaths(x, prefix, out);
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) datePaths(x, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

/**
 * Free-form values no store reads a field of: only ever sent out as JSON, where a Date and its
 * ISO string are the same text. A date inside stays a Date on MongoDB and a string on SQLite.
 */
const FREE_FORM = ['activities: object', 'idempotency_keys: response'];

test('every date a store writes on MongoDB lies at a path its spec declares (SQLite gives it back as a Date)', async () => {
  // Written natively on MongoDB: a date at an undeclared path would be a Date there and an ISO
  // string on SQLite, so a copy from SQLite would leave a string where MongoDB's code wrote a Date.
  const native = await open('mongodb', 'cross_native');
  await seedStores(native.repos, DOMAIN);
  const undeclared = new Set<string>();
  const freeForm = new Set<string>();
  for (const spec of STORE_SPECS)
    for (const doc of await allStored(native.engine, spec))
      for (const path of datePaths(doc)) {
        const at = `${spec.name}: ${path}`;
        if (FREE_FORM.some((f) => at.startsWith(`${f}.`))) freeForm.add(at.split('.')[0]!);
        else if (!(spec.dates ?? []).includes(path)) undeclared.add(at);
      }
  expect([...undeclared]).toEqual([]);
  // The seed does put dates there, so the exemption is about something real.
  expect([...freeForm].sort()).toEqual(FREE_FORM);
});

test('keys that look like Extended JSON type wrappers survive a backup and a restore', async () => {
  // An admin's JSON setting may hold any key. Extended JSON reads `{"$numberLong": "12"}` as 12
  // and fails on `{"$oid": "x"}`, so the archive escapes them (archive/codec.ts). FerretDB, like
  // MongoDB, stores no key starting with `$`, so this runs from SQLite to SQLite.
  const lookalikes = {
    $date: 'next week',
    $numberLong: '12',
    list: [{ $oid: 'not an id' }, { $numberInt: 'x', other: 1 }],
    $$two: 'dollars',
  };
  const from = await open('sqlite', 'dollars_from');
  await from.repos.settings.set('lookalikes', lookalikes);
  const backup = await backUp(from);
  const to = await open('sqlite', 'dollars_to');
  await restore(to, backup.archiveKey);
  expect(await to.repos.settings.get('lookalikes')).toStrictEqual(lookalikes);
});
