/**
 * Group commit in the stores (ADR 0011) on the real FerretDB: concurrent counter increments on one
 * object reach the database as one or two commands, and every one of them counts (the counter
 * moves by the number of calls). (The event outbox writes directly over the engine port:
 * test/integration/stores/activities.test.ts.)
 */
import { useTestDatabase } from '../../harness/database';

const t = useTestDatabase('it_group', 'group.test', { query: 'monitorCommands=true' });
const commands: Array<{ name: string; coll: unknown }> = [];

beforeAll(() => {
  t.db.conn
    .getClient()
    .on('commandStarted', (e: { commandName: string; command: Record<string, unknown> }) =>
      commands.push({ name: e.commandName, coll: e.command[e.commandName] }),
    );
});

const sent = (name: string, coll: string) =>
  commands.filter((c) => c.name === name && c.coll === coll).length;

test('increments of one object that arrive together are written together, and all count', async () => {
  const repos = t.repos;
  const id = '@grouped@group.test';
  await t.models.User.collection.insertOne({ _id: id as never, id, username: 'grouped', postCount: 0 });
  const before = sent('update', 'users');
  await Promise.all(Array.from({ length: 30 }, () => repos.users.bumpCounters(id, { postCount: 1 })));
  expect((await t.models.User.collection.findOne({ _id: id as never }))?.postCount).toBe(30);
  expect(sent('update', 'users') - before).toBeLessThanOrEqual(2);
  // A decrement still clamps at zero on its own.
  await t.models.User.collection.updateOne({ _id: id as never }, { $set: { postCount: 0 } });
  await repos.users.bumpCounters(id, { postCount: -1 });
  expect((await t.models.User.collection.findOne({ _id: id as never }))?.postCount).toBe(0);
});

test('on FerretDB a connection queues its writes, so concurrent updates of one document all land', async () => {
  // FerretDB 1.24 updates by reading, changing and writing back the whole document: two updates
  // of one document at once keep one. connectDatabase finds FerretDB and queues this process's writes.
  const id = '@counted@group.test';
  await t.models.User.collection.insertOne({ _id: id as never, id, username: 'counted', replyCount: 0 });
  await Promise.all(
    Array.from({ length: 40 }, () => t.models.User.updateOne({ _id: id }, { $inc: { replyCount: 1 } })),
  );
  expect((await t.models.User.collection.findOne({ _id: id as never }))?.replyCount).toBe(40);
});
