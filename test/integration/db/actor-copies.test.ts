/**
 * Author copies refreshed on everything an actor wrote (the `user.updated` consumer) on the real
 * FerretDB: every one of the actor's objects, across its bulk writes, and none of
 * anyone else's; the writes go by `_id` (the scan for the ids is a read).
 */
import { useTestDatabase } from '../../harness/database';

const D = 'copies.test';
const t = useTestDatabase('it_actor_copies', D, { query: 'monitorCommands=true' });
const updates: unknown[] = [];

beforeAll(() => {
  t.db.conn
    .getClient()
    .on('commandStarted', (e: { commandName: string; command: Record<string, unknown> }) => {
      if (e.commandName === 'update' && e.command.update === 'replies')
        for (const u of e.command.updates as Array<{ q: unknown }>) updates.push(u.q);
    });
});

test("a new name reaches all of an actor's replies, in short bulk writes, and no one else's", async () => {
  const ann = `@ann@${D}`;
  const bob = `@bob@${D}`;
  const reply = (actorId: string, i: number) => ({
    _id: `reply:${actorId}-${i}`,
    id: `reply:${actorId}-${i}`,
    actorId,
    actor: { id: actorId, name: 'old' },
    target: `post:root@${D}`,
    parent: `post:root@${D}`,
  });
  await t.models.Reply.collection.insertMany([
    ...Array.from({ length: 250 }, (_, i) => reply(ann, i)),
    ...Array.from({ length: 3 }, (_, i) => reply(bob, i)),
  ] as never[]);
  await t.repos.replies.refreshActorCopy(ann, { 'actor.name': 'Ann Liddell' });
  const names = async (actorId: string) =>
    (await t.models.Reply.find({ actorId }, { actor: 1 }).lean<Array<{ actor: { name: string } }>>()).map(
      (r) => r.actor.name,
    );
  expect(await names(ann)).toEqual(Array(250).fill('Ann Liddell'));
  expect(await names(bob)).toEqual(['old', 'old', 'old']);
  expect(updates).toHaveLength(250);
  for (const q of updates) expect(Object.keys(q as object)).toEqual(['_id']);
});
