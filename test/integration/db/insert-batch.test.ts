/**
 * Inserts and index changes by group commit (insert-batch.ts, ADR 0011 item 10) and the write
 * queue's turns (write-gate.ts `inTurn`), on the real FerretDB: concurrent inserts reach the
 * database as a few `insert` commands; each call still answers for its own document (an invalid
 * one and a duplicate `_id` fail alone, the rest are stored); a turn keeps other writes out until
 * it ends.
 */
import { InsertBatch, inTurn } from '@agora/common/db';
import { Schema } from 'mongoose';
import { useTestDatabase } from '../../harness/database';

const t = useTestDatabase('it_insert_batch', 'batch.test', { query: 'monitorCommands=true' });
const commands: Array<{ name: string; coll: unknown; n: number }> = [];

beforeAll(() => {
  t.db.conn
    .getClient()
    .on('commandStarted', (e: { commandName: string; command: Record<string, unknown> }) => {
      const docs = e.command.documents;
      commands.push({
        name: e.commandName,
        coll: e.command[e.commandName],
        n: Array.isArray(docs) ? docs.length : 0,
      });
    });
});

const sent = (name: string, coll: string) => commands.filter((c) => c.name === name && c.coll === coll);

const probeSchema = new Schema(
  { _id: { type: String, required: true }, name: { type: String, required: true } },
  { collection: 'batch_probe', timestamps: true },
);

test('concurrent inserts go in a few commands; an invalid document and a duplicate fail alone', async () => {
  const Probe = t.db.conn.model('BatchProbe', probeSchema);
  await Probe.create({ _id: 'taken', name: 'first' });
  const batch = new InsertBatch(Probe);
  const before = sent('insert', 'batch_probe').length;
  const ids = Array.from({ length: 20 }, (_, i) => `p${i}`);
  const results = await Promise.allSettled([
    ...ids.map((id) => batch.insert({ _id: id, name: id })),
    batch.insert({ _id: 'nameless' }),
    batch.insert({ _id: 'taken', name: 'second' }),
  ]);
  const ok = results.slice(0, 20);
  expect(ok.every((r) => r.status === 'fulfilled')).toBe(true);
  const stored = (ok[0] as PromiseFulfilledResult<Record<string, unknown>>).value;
  expect(stored).toMatchObject({ _id: 'p0', name: 'p0' });
  expect(stored.createdAt).toBeInstanceOf(Date);
  const [invalid, duplicate] = results.slice(20) as PromiseRejectedResult[];
  expect(invalid!.status).toBe('rejected');
  expect((invalid!.reason as Error).name).toBe('ValidationError');
  expect(duplicate!.status).toBe('rejected');
  expect((duplicate!.reason as { code?: number }).code).toBe(11000);
  // 21 documents went to the server (the invalid one never did), in at most three commands.
  const inserts = sent('insert', 'batch_probe').slice(before);
  expect(inserts.length).toBeLessThanOrEqual(3);
  expect(inserts.reduce((n, c) => n + c.n, 0)).toBeGreaterThanOrEqual(21);
  expect(await Probe.countDocuments({})).toBe(21);
  expect((await Probe.findById('taken').lean())?.name).toBe('first');
  expect(await Probe.findById('nameless').lean()).toBeNull();
});

test('a turn of the write queue keeps other writes out until it ends, and its own writes run', async () => {
  const db = t.db.conn.db!;
  const col = db.collection<{ _id: string; steps: string[] }>('turn_probe');
  await col.insertOne({ _id: 'log', steps: [] });
  const log = (step: string) => col.updateOne({ _id: 'log' }, { $push: { steps: step } });
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const turn = inTurn(db, async () => {
    entered();
    await log('turn 1');
    await new Promise((r) => setTimeout(r, 50));
    await log('turn 2');
  });
  await inside;
  const outside = log('outside');
  await Promise.all([turn, outside]);
  expect((await col.findOne({ _id: 'log' }))?.steps).toEqual(['turn 1', 'turn 2', 'outside']);
  // Without a queue (MongoDB, or no connection yet) a turn runs at once.
  await expect(inTurn(undefined, () => Promise.resolve('ran'))).resolves.toBe('ran');
});
