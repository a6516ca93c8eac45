/**
 * WAL checkpoints on a thread (ADR 0019, what the servers open): the commits of the writing
 * connection never checkpoint themselves; the thread copies the WAL into the database file every
 * hundred commits while writes go on; everything committed is there after a close and a reopen,
 * and the close leaves no WAL behind. Under writes that never pause the WAL still starts over
 * (ADR 0029) instead of growing for as long as they last. A thread that fails is reported and the
 * writes go on.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@agora/common/db/engine';

const dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
const SPEC = { name: 'things', indexes: [] };
type Thing = { _id: string; n: number };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}

test('inline (the default), 150 small commits stay in the WAL: below SQLite’s 1000 pages', async () => {
  const path = join(dir, 'inline.db');
  const engine = openSqlite({ path });
  await engine.ensure([SPEC]);
  const size = statSync(path).size;
  for (let i = 0; i < 150; i++) await engine.collection<Thing>(SPEC).insertOne({ _id: `t${i}`, n: i });
  expect(statSync(path).size).toBe(size);
  await engine.close();
});

test('on a thread, the same commits reach the database file while the connection stays open', async () => {
  const path = join(dir, 'thread.db');
  const engine = openSqlite({ path, checkpoints: 'thread' });
  await engine.ensure([SPEC]);
  const size = statSync(path).size;
  for (let i = 0; i < 150; i++) await engine.collection<Thing>(SPEC).insertOne({ _id: `t${i}`, n: i });
  await until(() => statSync(path).size > size);
  expect(await engine.collection<Thing>(SPEC).count({})).toBe(150);
  await engine.close();
});

test('a close leaves no WAL, and a reopen reads every commit', async () => {
  const path = join(dir, 'reopen.db');
  const engine = openSqlite({ path, checkpoints: 'thread' });
  await engine.ensure([SPEC]);
  for (let i = 0; i < 250; i++) await engine.collection<Thing>(SPEC).insertOne({ _id: `t${i}`, n: i });
  await engine.close();
  expect(existsSync(`${path}-wal`)).toBe(false);
  const again = openSqlite({ path, checkpoints: 'thread' });
  expect(await again.collection<Thing>(SPEC).count({})).toBe(250);
  expect(await again.collection<Thing>(SPEC).findOne({ _id: 't249' })).toEqual({ _id: 't249', n: 249 });
  await again.close();
});

test('under writes that never pause, the WAL starts over instead of growing with every commit', async () => {
  const path = join(dir, 'steady.db');
  const engine = openSqlite({ path, checkpoints: 'thread' });
  await engine.ensure([SPEC]);
  const things = engine.collection<Thing & { text: string }>(SPEC);
  // Eight writers, each starting its next commit on the loop's next turn after the last one, as
  // requests do: some commit is always on its way while the thread copies, as under a steady
  // load of posts.
  const commits = 16_000;
  const text = 'x'.repeat(3000); // a page (4 KB) or more of WAL per commit
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      for (let i = w; i < commits; i += 8) {
        await things.insertOne({ _id: `t${i}`, n: i, text });
        await new Promise((r) => setImmediate(r));
      }
    }),
  );
  // Every commit appended about four 4 KB frames: a WAL never started over holds them all
  // (270 MB here). One that starts over stays within a few cycles' frames: 10–40 MB, the more the
  // busier the machine (the thread's checkpoints take longer while the writers go on), so the
  // bound is a quarter of the never-restarted size, not a cycle's.
  expect(statSync(`${path}-wal`).size).toBeLessThan(commits * 4096);
  expect(await things.count({})).toBe(commits);
  await engine.close();
  const again = openSqlite({ path });
  expect(await again.collection<Thing>(SPEC).count({})).toBe(commits);
  expect(await again.collection<Thing>(SPEC).findOne({ _id: `t${commits - 1}` })).toMatchObject({
    n: commits - 1,
  });
  await again.close();
});

test('the thread checkpoints while another connection (inline) writes the same file', async () => {
  const path = join(dir, 'shared.db');
  const engine = openSqlite({ path, checkpoints: 'thread' });
  await engine.ensure([SPEC]);
  const size = statSync(path).size;
  const other = openSqlite({ path });
  for (let i = 0; i < 150; i++) {
    const [mine, theirs] = i % 2 ? [engine, other] : [other, engine];
    await mine.collection<Thing>(SPEC).insertOne({ _id: `t${i}`, n: i });
    await theirs.collection<Thing>(SPEC).updateOne({ _id: `t${i}` }, { $inc: { n: 1 } });
  }
  await until(() => statSync(path).size > size);
  expect(await other.collection<Thing>(SPEC).count({ n: { $gt: 0 } })).toBe(150);
  await other.close();
  await engine.close();
});

test('when the thread fails, the failure is reported and the writes go on', async () => {
  const gone = mkdtempSync(join(tmpdir(), 'checkpoints-gone-'));
  const path = join(gone, 'agora.db');
  const failures: Error[] = [];
  const engine = openSqlite({
    path,
    checkpoints: 'thread',
    onCheckpointFailure: (err) => failures.push(err),
  });
  await engine.ensure([SPEC]);
  // The thread opens its connection with the first checkpoint: by then the file's directory is gone.
  rmSync(gone, { recursive: true, force: true });
  for (let i = 0; i < 100; i++) await engine.collection<Thing>(SPEC).insertOne({ _id: `t${i}`, n: i });
  await until(() => failures.length > 0);
  expect(failures[0]!.message).toMatch(/unable to open database file|exited/);
  for (let i = 100; i < 300; i++) await engine.collection<Thing>(SPEC).insertOne({ _id: `t${i}`, n: i });
  expect(await engine.collection<Thing>(SPEC).count({})).toBe(300);
  await engine.close();
});
