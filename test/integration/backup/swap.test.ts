/**
 * The restore's swap against the real FerretDB (no transactions, no `dropTarget`): staged
 * collections take the live names, collections absent from the archive are retired, and when a
 * rename fails half-way every swap already made is undone, so the database is as it was. Also
 * the job slot: one job in flight, a lapsed lease is failed by the sweeper's check.
 */
import { connectDatabase, createRepositories, type Database, type Repositories } from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { mongoUrlFor, uniqueName } from '../../harness/env';
import { swapCollections } from '../../../services/backup/src/restore/swap';
import type { JobLease } from '../../../services/backup/src/lease';
import type { BackupContext } from '../../../services/backup/src/context';

const logger = createLogger({ level: 'silent', service: 'test' });
let db: Database;
let repos: Repositories;
const lease = { check: () => undefined } as unknown as JobLease;

beforeAll(async () => {
  db = await connectDatabase({ url: mongoUrlFor(uniqueName('it_swap')), logger });
  repos = createRepositories(db, 'social.test');
});
afterAll(async () => {
  await db.conn.db!.dropDatabase();
  await db.close();
});

const deps = () => ({ stores: repos, logger }) as unknown as BackupContext;
async function contents(name: string): Promise<unknown[]> {
  return await db.conn
    .db!.collection(name)
    .find({}, { projection: { _id: 0 } })
    .toArray();
}
// Mongoose builds the models' indexes (and so their collections) in the background: look only
// at this test's collections and the restore's scratch ones.
const OURS = /^(alpha|beta|gamma|delta|epsilon|__restore_.*|__retired_.*)$/;
async function names(): Promise<string[]> {
  return (await db.conn.db!.listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .filter((n) => OURS.test(n))
    .sort();
}
async function reset(): Promise<void> {
  for (const n of await names()) await db.conn.db!.collection(n).drop();
  await db.conn.db!.collection('alpha').insertOne({ v: 'live alpha' });
  await db.conn.db!.collection('beta').insertOne({ v: 'live beta' });
  await db.conn.db!.collection('gamma').insertOne({ v: 'live gamma, not in the archive' });
  await db.conn.db!.collection('__restore_t_alpha').insertOne({ v: 'archived alpha' });
  await db.conn.db!.collection('__restore_t_beta').insertOne({ v: 'archived beta' });
  await db.conn.db!.collection('__restore_t_delta').insertOne({ v: 'archived delta, new' });
}

test('all swaps succeed: archived collections in place, the others dropped, no scratch left', async () => {
  await reset();
  const recorded: string[][] = [];
  const report = await swapCollections(
    deps(),
    lease,
    't',
    new Map([
      ['alpha', '__restore_t_alpha'],
      ['beta', '__restore_t_beta'],
      ['delta', '__restore_t_delta'],
    ]),
    (r) => {
      recorded.push([...r.replaced]);
      return Promise.resolve();
    },
  );
  expect(report.replaced).toEqual(['alpha', 'beta', 'delta']);
  expect(report.dropped.filter((n) => OURS.test(n))).toEqual(['gamma']);
  // Recorded as it went: after each collection.
  expect(recorded.slice(0, 3)).toEqual([['alpha'], ['alpha', 'beta'], ['alpha', 'beta', 'delta']]);
  expect(await names()).toEqual(['alpha', 'beta', 'delta']);
  expect(await contents('alpha')).toEqual([{ v: 'archived alpha' }]);
  expect(await contents('delta')).toEqual([{ v: 'archived delta, new' }]);
});

test('a rename failing half-way undoes every swap made: the database is as it was', async () => {
  await reset();
  const replacedSoFar: string[][] = [];
  await expect(
    swapCollections(
      deps(),
      lease,
      't',
      new Map([
        ['alpha', '__restore_t_alpha'],
        ['beta', '__restore_t_beta'],
        // Its staging collection does not exist: the rename fails after alpha and beta were swapped.
        ['epsilon', '__restore_t_epsilon'],
      ]),
      (r) => {
        replacedSoFar.push([...r.replaced]);
        return Promise.resolve();
      },
    ),
  ).rejects.toThrow(/every collection was put back as it was/);
  expect(replacedSoFar).toEqual([['alpha'], ['alpha', 'beta']]);
  expect(await contents('alpha')).toEqual([{ v: 'live alpha' }]);
  expect(await contents('beta')).toEqual([{ v: 'live beta' }]);
  expect(await contents('gamma')).toEqual([{ v: 'live gamma, not in the archive' }]);
  expect((await names()).filter((n) => n.startsWith('__retired_'))).toEqual([]);
  expect((await repos.collections.applicationCollections()).filter((n) => OURS.test(n))).toEqual([
    'alpha',
    'beta',
    'gamma',
  ]);
});

test('the slot: one job in flight; a lapsed lease fails the job and frees the queue', async () => {
  const first = await repos.backupJobs.queue('backup', '@root@social.test');
  expect('job' in first).toBe(true);
  const id = (first as { job: { _id: { toHexString(): string } } }).job._id.toHexString();
  const second = await repos.backupJobs.queue('backup', '@root@social.test');
  expect('conflict' in second && second.conflict?._id.toHexString()).toBe(id);

  expect(await repos.backupJobs.acquire(id, 'worker-a', 50)).toBe('acquired');
  // A redelivery to another worker while the lease is live: not taken twice.
  expect(await repos.backupJobs.acquire(id, 'worker-b', 50)).toBe('held');
  await new Promise((r) => setTimeout(r, 80));
  const seen = await repos.backupJobs.inspect(10_000);
  expect(seen.state).toBe('expired');
  if (seen.state !== 'expired') return;
  expect(await repos.backupJobs.failExpired(seen.jobId, seen.owner, seen.until, 'worker lost')).toBe(true);
  // The dead worker, had it survived, can no longer end the job as done.
  expect(await repos.backupJobs.finish(id, 'worker-a', {})).toBe(false);
  expect(await repos.backupJobs.renew(id, 'worker-a', 50)).toBe(false);
  expect((await repos.backupJobs.findById(id))?.status).toBe('failed');
  expect('job' in (await repos.backupJobs.queue('backup', '@root@social.test'))).toBe(true);
});
