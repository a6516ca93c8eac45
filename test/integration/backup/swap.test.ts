/**
 * The restore's swap over the engine port, on both engines (no transactions across collections):
 * staged collections take the live names, collections absent from the archive are retired, and
 * when a rename fails half-way every swap already made is undone, so the database is as it was.
 * (The job slot's tests are the store's: test/integration/stores/backup-jobs.test.ts.)
 */
import { createStores, type Stores } from '@agora/common/db';
import type { Doc, Engine } from '@agora/common/db/engine';
import { createLogger } from '@agora/common/logger';
import { engineFixtures } from '../engine/fixtures';
import { swapCollections } from '../../../services/backup/src/restore/swap';
import type { JobLease } from '../../../services/backup/src/lease';
import type { BackupContext } from '../../../services/backup/src/context';

const logger = createLogger({ level: 'silent', service: 'test' });
const lease = { check: () => undefined } as unknown as JobLease;

describe.each(engineFixtures())('restore swap on $name', (fx) => {
  let engine: Engine;
  let repos: Stores;

  beforeAll(async () => {
    engine = await fx.open();
    repos = createStores({ engine, ping: () => engine.ping(), close: () => engine.close() }, 'social.test');
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const deps = () => ({ stores: repos, logger }) as unknown as BackupContext;
  const coll = (name: string) => engine.collection<Doc & { v: string }>({ name, indexes: [] });
  async function contents(name: string): Promise<unknown[]> {
    return (await coll(name).find({}, { sort: [['_id', 1]] })).map(({ v }) => ({ v }));
  }
  // Look only at this test's collections and the restore's scratch ones.
  const OURS = /^(alpha|beta|gamma|delta|epsilon|__restore_.*|__retired_.*)$/;
  async function names(): Promise<string[]> {
    return (await engine.names()).filter((n) => OURS.test(n)).sort();
  }
  async function reset(): Promise<void> {
    for (const n of await names()) await engine.drop(n);
    const put = async (name: string, v: string) => {
      await engine.ensure([{ name, indexes: [] }]);
      await coll(name).insertOne({ _id: 'one', v });
    };
    await put('alpha', 'live alpha');
    await put('beta', 'live beta');
    await put('gamma', 'live gamma, not in the archive');
    await put('__restore_t_alpha', 'archived alpha');
    await put('__restore_t_beta', 'archived beta');
    await put('__restore_t_delta', 'archived delta, new');
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
});
