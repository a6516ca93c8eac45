/**
 * A reaction named by its public id (Update and Delete of a reaction) on the real FerretDB, found
 * through `react_ids` (ADR 0011 item 15): every read is by `_id` (the reaction's key, never its
 * `id` field, which FerretDB would find by scanning `reacts`); a removed reaction's id finds
 * nothing, and a reaction made again answers to its new id only; purging a target clears its
 * ids.
 */
import { useTestDatabase } from '../../harness/database';
import { recordCommands } from '../../harness/stored';

const D = 'reactids.test';
const t = useTestDatabase('it_react_ids', D, { query: 'monitorCommands=true' });
const sent = recordCommands(t);

const T = `post:target@${D}`;
let n = 0;
const react = (who: string, target = T) => ({
  id: `react:${++n}@${D}`,
  actorId: `@${who}@${D}`,
  target,
  emoji: '👍',
});

test('a reaction is found by its public id through `_id` reads only; removed, its id finds nothing', async () => {
  const r = react('ann');
  expect(await t.repos.reacts.add(r)).toBe(true);
  const from = sent.length;
  expect(await t.repos.reacts.byId(r.id)).toMatchObject({ id: r.id, actorId: r.actorId, target: T });
  const finds = sent.slice(from).filter((c) => c.name === 'find');
  expect(finds.length).toBeGreaterThan(0);
  for (const f of finds) expect(Object.keys(f.command.filter as object)).toEqual(['_id']);
  expect(finds.some((f) => f.coll === 'reacts')).toBe(true);

  expect(await t.repos.reacts.removeById(r.id)).toMatchObject({ id: r.id });
  expect(await t.repos.reacts.byId(r.id)).toBeNull();
  expect(await t.models.ReactId.countDocuments({ _id: r.id })).toBe(0);
  expect(await t.repos.reacts.byId(`react:unknown@${D}`)).toBeNull();
});

test('a reaction made again answers to its new id; the old id finds nothing', async () => {
  const first = react('bob');
  await t.repos.reacts.add(first);
  // Removed through its key (an Undo of the React), then made again with a new id.
  await t.repos.reacts.removeMine(first.actorId, T);
  const again = react('bob');
  await t.repos.reacts.add(again);
  expect(await t.repos.reacts.byId(first.id)).toBeNull();
  expect(await t.repos.reacts.byId(again.id)).toMatchObject({ id: again.id });
  // A stale entry (its removal cut short) cannot name the reaction that now has the key.
  await t.models.ReactId.updateOne(
    { _id: first.id },
    { $set: { key: `${T}|${again.actorId}` } },
    { upsert: true },
  );
  expect(await t.repos.reacts.byId(first.id)).toBeNull();
});

test("purging a target clears its reactions' ids", async () => {
  const target = `post:purged@${D}`;
  const rs = [react('cat', target), react('dan', target)];
  for (const r of rs) await t.repos.reacts.add(r);
  expect(await t.repos.reacts.purgeForTargets([target])).toBe(2);
  for (const r of rs) {
    expect(await t.repos.reacts.byId(r.id)).toBeNull();
    expect(await t.models.ReactId.countDocuments({ _id: r.id })).toBe(0);
  }
});
