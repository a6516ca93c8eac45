/**
 * The restore's swap against the real FerretDB (no transactions, no `dropTarget`): staged
 * collections take the live names, collections absent from the archive are retired, and when a
 * rename fails half-way every swap already made is undone, so the database is as it was. (The job
 * slot's tests are the store's: test/integration/stores/backup-jobs.test.ts.)
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
