/**
 * A new post's circle fan-out after the response (ADR 0011 item 13) on the real FerretDB and
 * RabbitMQ: deferred appends linger and share one write; any use of one of their lists in this
 * process writes them first (it reads its own writes); a post's deferred fan-out is named in its
 * activity's outbox row, which stays until the fan-out is written; and the relay finishes a
 * fan-out a crash cut short, appending and counting nothing twice.
 */
import { EVENT_OUTBOX, LISTS, ListStore, type PendingEvents } from '@agora/common/db';
import { createAmqpBus, publishEvents, relayOnce, type MessageBus } from '@agora/common/messaging';
import { useTestDatabase } from '../../harness/database';
import { createVhost, uniqueName } from '../../harness/env';
import { notePost } from '../../harness/stored';

const DOMAIN = 'deferred.test';
const t = useTestDatabase('it_deferred', DOMAIN, { query: 'monitorCommands=true' });
const commands: Array<{ name: string; coll: unknown }> = [];
let vhost: { url: string; remove: () => Promise<void> };
let bus: MessageBus;
/** The event outbox as stored, through the port. */
const outbox = () =>
  t.db.engine.collection<{ _id: string; events: PendingEvents['events']; fanOut?: string[] }>(EVENT_OUTBOX);

beforeAll(async () => {
  t.db.conn
    .getClient()
    .on('commandStarted', (e: { commandName: string; command: Record<string, unknown> }) =>
      commands.push({ name: e.commandName, coll: e.command[e.commandName] }),
    );
  vhost = await createVhost(uniqueName('it_deferred'));
  bus = createAmqpBus({ url: vhost.url, logger: t.logger, service: 'it-deferred' });
});

afterAll(async () => {
  await bus?.close();
  await vhost?.remove();
});

const sent = (name: string, coll: string) =>
  commands.filter((c) => c.name === name && c.coll === coll).length;

const entry = (i: number) => ({ id: `e${String(i).padStart(3, '0')}`, at: new Date(1e12 + i * 1000) });

async function ids(lists: ListStore, key: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of lists.newest([key])) out.push(e.id);
  return out;
}

const post = (n: number) => notePost(`post:deferred-${n}@${DOMAIN}`, `@ann@${DOMAIN}`, n);

test('deferred appends linger and share one write; reading one of their lists writes them first', async () => {
  // A linger far longer than the test: only a use of the list can have written them.
  const lists = new ListStore(t.models.ListHead, t.models.ListBucket, 60_000);
  const before = sent('update', 'list_heads');
  const written = Array.from({ length: 20 }, (_, i) =>
    lists.appendLater([
      { key: 'dfo:c1', entries: [entry(i)] },
      { key: 'dfo:c2', entries: [entry(i)], tags: ['to.public'] },
    ]),
  );
  await new Promise((r) => setTimeout(r, 50));
  expect(await t.models.ListHead.findOne({ _id: 'dfo:c1' }).lean()).toBeNull();
  // This process reads its own writes: the read writes every deferred append first.
  expect(await ids(lists, 'dfo:c1')).toEqual(Array.from({ length: 20 }, (_, i) => entry(19 - i).id));
  await Promise.all(written);
  expect(await lists.head('dfo:c2')).toEqual({ count: 20, tags: { 'to.public': 20 } });
  // Forty appends to two lists: one head update command (and one for the buckets).
  expect(sent('update', 'list_heads') - before).toBe(1);
});

test('a removal and a count of a list wait for its deferred appends, so nothing is counted wrong', async () => {
  const lists = new ListStore(t.models.ListHead, t.models.ListBucket, 60_000);
  void lists.appendLater([{ key: 'dfo:rm', entries: [entry(1), entry(2)] }]);
  expect(await lists.remove('dfo:rm', entry(1).id, entry(1).at)).toBe(true);
  expect((await lists.head('dfo:rm')).count).toBe(1);
  expect(await ids(new ListStore(t.models.ListHead, t.models.ListBucket), 'dfo:rm')).toEqual([entry(2).id]);
});

test("a post's deferred fan-out keeps its outbox row until written; another process then reads it", async () => {
  const circles = ['circle:d1@deferred.test', 'circle:d2@deferred.test'];
  const p = post(1);
  const created = await t.repos.posts.createLocal(p, { circles, deferFanOut: true });
  expect(created.circles).toEqual(circles);
  await t.repos.activities.record(
    { id: 'activity:d1@deferred.test', type: 'Create', actorId: p.actorId },
    [{ name: 'activity.Create', payload: { activityId: 'activity:d1@deferred.test' } }],
    { fanOut: [p.id] },
  );
  const row = await outbox().findOne({ _id: 'activity:d1@deferred.test' });
  expect(row?.fanOut).toEqual([p.id]);
  // Published, but the row is cleared only once the deferred work is done.
  let done!: () => void;
  const work = new Promise<void>((r) => (done = r));
  const rt = { bus, stores: t.repos, logger: t.logger };
  await publishEvents(rt, 'activity:d1@deferred.test', row!.events, { after: work });
  await new Promise((r) => setTimeout(r, 100));
  expect(await outbox().count({ _id: 'activity:d1@deferred.test' })).toBe(1);
  done();
  for (let i = 0; i < 50 && (await outbox().count({ _id: 'activity:d1@deferred.test' })); i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(await outbox().count({ _id: 'activity:d1@deferred.test' })).toBe(0);
  await t.repos.posts.fannedOut(p.id);
  // Another process (a store of its own, nothing deferred) reads the entries.
  const other = new ListStore(t.models.ListHead, t.models.ListBucket);
  for (const c of circles) expect(await ids(other, LISTS.circle(c))).toEqual([p.id]);
  expect(await ids(other, LISTS.author(p.actorId))).toContain(p.id);
});

test('the relay finishes a fan-out a crash cut short, once, then publishes the events and clears the row', async () => {
  const circles = ['circle:r1@deferred.test', 'circle:r2@deferred.test'];
  const p = post(2);
  // The crash: the post is stored with its circles and in its own lists, but only the first
  // circle's timeline got it before the process died.
  await t.repos.posts.createLocal(p, { circles: [] });
  await t.models.Post.updateOne({ _id: p.id }, { $set: { circles } });
  const at = new Date(p.publishedAt);
  await t.repos.lists.append(LISTS.circle(circles[0]!), [{ id: p.id, at, by: p.actorId }], ['to.public']);
  const activityId = 'activity:r1@deferred.test';
  await t.repos.activities.record(
    { id: activityId, type: 'Create', actorId: p.actorId },
    [{ name: 'activity.Create', payload: { activityId, actorId: p.actorId, objectId: p.id } }],
    { fanOut: [p.id] },
  );
  await outbox().updateOne({ _id: activityId }, { $set: { createdAt: new Date(Date.now() - 60_000) } });

  const received: unknown[] = [];
  await bus.subscribe('it_deferred.create', ['activity.Create'], (m) => {
    received.push(m.payload);
    return Promise.resolve();
  });
  const rt = { bus, stores: t.repos, logger: t.logger };
  // A relay that cannot finish the fan-out leaves the row alone.
  await relayOnce(rt, { graceMs: 1000 });
  expect(await outbox().count({ _id: activityId })).toBe(1);

  const recover = async (row: { fanOut: string[] }) => {
    for (const id of row.fanOut) await t.repos.timelines.ensureFannedOut(id);
  };
  await relayOnce(rt, { graceMs: 1000, recover });
  const other = new ListStore(t.models.ListHead, t.models.ListBucket);
  for (const c of circles) {
    expect(await ids(other, LISTS.circle(c))).toEqual([p.id]);
    expect((await other.head(LISTS.circle(c))).count).toBe(1);
  }
  expect(await outbox().count({ _id: activityId })).toBe(0);
  for (let i = 0; i < 50 && !received.length; i++) await new Promise((r) => setTimeout(r, 100));
  expect(received).toEqual([{ activityId, actorId: p.actorId, objectId: p.id }]);

  // Running the recovery again appends and counts nothing twice.
  await recover({ fanOut: [p.id] });
  for (const c of circles) expect((await other.head(LISTS.circle(c))).count).toBe(1);
});
