/**
 * Group commit in the stores (ADR 0011) on the real FerretDB: concurrent counter increments on one
 * object and concurrent outbox confirmations reach the database as one or two commands, and
 * every one of them counts (the counter moves by the number of calls; every confirmed row goes).
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
  const id = 'reply:grouped@group.test';
  await t.models.Reply.collection.insertOne({ _id: id as never, id, target: 'x', reactCount: 0 });
  const before = sent('update', 'replies');
  await Promise.all(Array.from({ length: 30 }, () => repos.replies.bump(id, 'reactCount', 1)));
  expect((await t.models.Reply.collection.findOne({ _id: id as never }))?.reactCount).toBe(30);
  expect(sent('update', 'replies') - before).toBeLessThanOrEqual(2);
  // A decrement still clamps at zero on its own.
  await t.models.Reply.collection.updateOne({ _id: id as never }, { $set: { reactCount: 0 } });
  await repos.replies.bump(id, 'reactCount', -1);
  expect((await t.models.Reply.collection.findOne({ _id: id as never }))?.reactCount).toBe(0);
});

test('outbox rows confirmed together are deleted together, every one of them', async () => {
  const repos = t.repos;
  const ids = Array.from({ length: 30 }, (_, i) => `https://group.test/activities/${i}`);
  for (const id of ids)
    await repos.activities.record({ id, type: 'Create', actorId: '@grouped@group.test' }, [
      { name: 'activity.Create', payload: { activityId: id } },
    ]);
  expect(await t.models.EventOutbox.countDocuments({})).toBe(30);
  const before = sent('delete', 'event_outbox');
  await Promise.all(ids.map((id) => repos.activities.markPublished(id)));
  expect(await t.models.EventOutbox.countDocuments({})).toBe(0);
  expect(sent('delete', 'event_outbox') - before).toBeLessThanOrEqual(2);
});

test('on FerretDB a connection queues its writes, so concurrent updates of one document all land', async () => {
  // FerretDB 1.24 updates by reading, changing and writing back the whole document: two updates
  // of one document at once keep one. connectDatabase finds FerretDB and queues this process's writes.
  const id = 'reply:counted@group.test';
  await t.models.Reply.collection.insertOne({ _id: id as never, id, target: 'x', replyCount: 0 });
  await Promise.all(
    Array.from({ length: 40 }, () => t.models.Reply.updateOne({ _id: id }, { $inc: { replyCount: 1 } })),
  );
  expect((await t.models.Reply.collection.findOne({ _id: id as never }))?.replyCount).toBe(40);
});
