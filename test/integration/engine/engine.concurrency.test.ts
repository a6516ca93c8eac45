/**
 * Nothing is lost when writers race (issue 22, item 3), on both adapters: many concurrent
 * updates of one counter, one set and one membership through one engine; on SQLite, several
 * processes on one file; on FerretDB, which loses concurrent updates between processes, a
 * second process is refused with a message that says why.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DuplicateKeyError, FerretDBShared, openMongo, type Doc, type Engine } from '@agora/common/db/engine';
import { engineFixtures, specFor } from './fixtures';
import { COUNTERS, MEMBERSHIPS, type Counter, type Membership } from './specs';

const run = promisify(execFile);

describe.each(engineFixtures())('engine concurrency: $name', (fx) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([COUNTERS, MEMBERSHIPS]);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('200 concurrent $inc and $addToSet on one document keep all 200', async () => {
    const c = engine.collection<Counter>(COUNTERS);
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        c.updateOne({ _id: 'one' }, { $inc: { n: 1 }, $addToSet: { members: `m${i}` } }, { upsert: true }),
      ),
    );
    const doc = await c.findOne({ _id: 'one' });
    expect(doc?.n).toBe(200);
    expect(new Set(doc?.members).size).toBe(200);
  });

  it('50 racing inserts of one membership: exactly one wins, the others see DuplicateKeyError', async () => {
    const m = engine.collection<Membership>(MEMBERSHIPS);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => m.insertOne({ _id: `race-${i}`, circle: 'c1', member: 'bob' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect(r.reason).toBeInstanceOf(DuplicateKeyError);
    expect(await m.count({ circle: 'c1' })).toBe(1);
  });

  it('several ensures of the same new collections at once all succeed (processes starting together)', async () => {
    // Every process of a release prepares the database when migrations are pending (ADR 0032),
    // so on a fresh database several create the same collections and indexes at once.
    const specs = [
      specFor({ indexes: [{ fields: [['k', 1]], unique: true, serves: 'the test' }] }, 'ens'),
      specFor({ indexes: [] }, 'ens'),
    ];
    await Promise.all(Array.from({ length: 4 }, () => engine.ensure(specs)));
    const names = await engine.names();
    for (const s of specs) expect(names).toContain(s.name);
    const keyed = engine.collection<Doc & { k: number }>(specs[0]!);
    await keyed.insertOne({ _id: 'a', k: 1 });
    await expect(keyed.insertOne({ _id: 'b', k: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);
  });

  if (fx.name === 'sqlite') {
    it('4 processes × 100 updates of one document on one file keep all 400', async () => {
      const writer = join(__dirname, 'writer.ts');
      await Promise.all(
        ['p1', 'p2', 'p3', 'p4'].map((who) =>
          run(process.execPath, ['--import', 'tsx', writer, fx.location(), who, '100'], {
            cwd: join(__dirname, '..', '..', '..'),
          }),
        ),
      );
      const doc = await engine.collection<Counter>(COUNTERS).findOne({ _id: 'shared' });
      expect(doc?.n).toBe(400);
      expect(new Set(doc?.members).size).toBe(400);
    });
  } else {
    it('a second process on the same FerretDB database is refused, naming why', async () => {
      const second = openMongo({ url: fx.location(), checkIndexes: true });
      await expect(second).rejects.toBeInstanceOf(FerretDBShared);
      await expect(second).rejects.toThrow(/loses concurrent updates between processes/);
    });
  }
});
