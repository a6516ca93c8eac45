/**
 * Group commit in the stores (ADR 0011) on the real FerretDB: concurrent counter increments on one
 * object and concurrent outbox confirmations reach the database as one or two commands, and
 * every one of them counts (the counter moves by the number of calls; every confirmed row goes).
 */
import { connectDatabase, createRepositories, registerModels, type Database } from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { mongoUrlFor, uniqueName } from '../../harness/env';

const logger = createLogger({ level: 'silent', service: 'test' });
let db: Database;
let models: ReturnType<typeof registerModels>;
const commands: Array<{ name: string; coll: unknown }> = [];

beforeAll(async () => {
  db = await connectDatabase({ url: `${mongoUrlFor(uniqueName('it_group'))}?monitorCommands=true`, logger });
  models = registerModels(db.conn);
  db.conn
    .getClient()
    .on('commandStarted', (e: { commandName: string; command: Record<string, unknown> }) =>
      commands.push({ name: e.commandName, coll: e.command[e.commandName] }),
    );
});

afterAll(async () => {
  await db.conn.db!.dropDatabase();
  await db.close();
});

const sent = (name: string, coll: string) =>
  commands.filter((c) => c.name === name && c.coll === coll).length;

test('increments of one object that arrive together are written together, and all count', async () => {
  const repos = createRepositories(db, 'group.test');
  const id = '@grouped@group.test';
  await models.User.collection.insertOne({ _id: id as never, id, username: 'grouped', postCount: 0 });
  const before = sent('update', 'users');
  await Promise.all(Array.from({ length: 30 }, () => repos.users.bumpCounters(id, { postCount: 1 })));
  expect((await models.User.collection.findOne({ _id: id as never }))?.postCount).toBe(30);
  expect(sent('update', 'users') - before).toBeLessThanOrEqual(2);
  // A decrement still clamps at zero on its own.
  await models.User.collection.updateOne({ _id: id as never }, { $set: { postCount: 0 } });
  await repos.users.bumpCounters(id, { postCount: -1 });
  expect((await models.User.collection.findOne({ _id: id as never }))?.postCount).toBe(0);
});

test('outbox rows confirmed together are deleted together, every one of them', async () => {
  const repos = createRepositories(db, 'group.test');
  const ids = Array.from({ length: 30 }, (_, i) => `https://group.test/activities/${i}`);
  for (const id of ids)
    await repos.activities.record({ id, type: 'Create', actorId: '@grouped@group.test' }, [
      { name: 'activity.Create', payload: { activityId: id } },
    ]);
  expect(await models.EventOutbox.countDocuments({})).toBe(30);
  const before = sent('delete', 'event_outbox');
  await Promise.all(ids.map((id) => repos.activities.markPublished(id)));
  expect(await models.EventOutbox.countDocuments({})).toBe(0);
  expect(sent('delete', 'event_outbox') - before).toBeLessThanOrEqual(2);
});

test('on FerretDB a connection queues its writes, so concurrent updates of one document all land', async () => {
  // FerretDB 1.24 updates by reading, changing and writing back the whole document: two updates
  // of one document at once keep one. connectDatabase finds FerretDB and queues this process's writes.
  const id = '@counted@group.test';
  await models.User.collection.insertOne({ _id: id as never, id, username: 'counted', replyCount: 0 });
  await Promise.all(
    Array.from({ length: 40 }, () => models.User.updateOne({ _id: id }, { $inc: { replyCount: 1 } })),
  );
  expect((await models.User.collection.findOne({ _id: id as never }))?.replyCount).toBe(40);
});
