/**
 * An outage of a whole server (issue 23, "Done when"; docs/federation.md, "Held deliveries"):
 * two compiled standalone servers A and B on the shipped federation defaults (backoff from 30 s,
 * breaker cool-down 5 minutes, probe every 20 s). bob on B follows alice on A and is in a circle of hers; B is killed
 * (SIGKILL of its process group: its in-process SQLite and bus die with it) and alice writes
 * twenty posts (public and to that circle, alternately), which A holds for B; once A's probes have found B down, B is started again on the same data directory and port.
 * All twenty must be stored on B, once each, within 60 s of B's return, and nothing may stay
 * held or be given up on A. What B stored is read from its SQLite file, not only its HTTP answers.
 */
import { waitFor } from '../harness/standalone';
import { act, register, startPair, type Pair } from '../harness/two-compiled';

const A = 'alpha.test';
const B = 'beta.test';
let pair: Pair;

beforeAll(async () => {
  // Info logs on both, so the test can say how A found B back (the release's log line).
  pair = await startPair([A, B], { LOG_LEVEL: 'info' });
}, 180_000);
afterAll(async () => {
  await pair?.close();
});

test('twenty posts written while B is down are all on B, once each, within 60 s of its return', async () => {
  const { a, b } = pair;
  const alice = await register(a, 'alice');
  const bob = await register(b, 'bob');
  await act(b, bob.token, { type: 'Follow', target: alice.id });
  await waitFor(() => a.stores.followers.isFollower(alice.id, bob.id), 30_000);

  // An audience holding bob both ways: his follow (public posts) and a circle of alice's he is in.
  const circle = await act(a, alice.token, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'with bob' },
  });
  await act(a, alice.token, { type: 'Add', object: bob.id, target: circle });
  await waitFor(
    async () => (await b.stores.circles.byId(circle))?.members.some((m) => m.id === bob.id) ?? false,
    30_000,
  );

  await b.kill();
  const ids: string[] = [];
  for (let i = 0; i < 20; i++)
    ids.push(
      await act(a, alice.token, {
        type: 'Create',
        objectType: 'Post',
        to: i % 2 ? circle : '@public',
        object: { content: `written while B is down, ${i}` },
      }),
    );
  // Every one tried once (refused connections) or held behind the open circuit: held on A's disk.
  await waitFor(async () => (await a.stores.parkedDeliveries.count(B, 'held')) === 20, 60_000);
  // The refusals opened B's circuit: recovery has to find B back, not wait out the cool-down.
  await waitFor(async () => (await a.stores.remoteServers.byDomain(B))?.circuit?.state === 'open', 30_000);
  // A long enough outage that A's probes (every 20 s) found B down: a probe claimed and then the
  // next one (the claim moves `nextProbeAt`), so B's return is found by A's shipped schedule.
  const probe = async () => (await a.stores.remoteServers.byDomain(B))?.nextProbeAt?.getTime() ?? 0;
  await waitFor(async () => (await probe()) > 0, 60_000);
  const first = await probe();
  await waitFor(async () => (await probe()) > first, 60_000);

  await b.restart();
  const back = Date.now();
  const copies = async () =>
    (await b.stored<{ _id: string; originDomain?: string; deletedAt?: unknown }>('posts')).filter((p) =>
      ids.includes(p._id),
    );
  await waitFor(async () => (await copies()).length === 20, 60_000, 100);
  const seconds = (Date.now() - back) / 1000;
  const release = a.server
    .output()
    .split('\n')
    .filter((l) => l.includes('held deliveries released') && l.includes(B))
    .map((l) => (JSON.parse(l) as { via?: string }).via);
  console.log(
    `outage: all 20 posts stored on B ${seconds.toFixed(1)} s after its return (A released its held deliveries on: ${release.join(', ') || 'nothing logged'})`,
  );
  expect(seconds).toBeLessThan(60);

  // Once each: one copy per post, one inbound Create per post in B's activity log, each processed,
  // and bob's timeline lists each once.
  const stored = await copies();
  expect(stored.map((p) => p._id).sort()).toEqual([...ids].sort());
  expect(stored.every((p) => p.originDomain === A && !p.deletedAt)).toBe(true);
  await waitFor(async () => (await a.stores.parkedDeliveries.count(B, 'held')) === 0, 60_000);
  expect(await a.stores.parkedDeliveries.count(B, 'dead')).toBe(0);
  const creates = (await b.stored<Logged>('activities')).filter(
    (r) => r.type === 'Create' && r.raw && ids.includes(objectIdOf(r.raw)),
  );
  expect(creates.map((r) => objectIdOf(r.raw!)).sort()).toEqual([...ids].sort());
  await waitFor(
    async () =>
      (await b.stored<Logged>('activities'))
        .filter((r) => r.type === 'Create' && r.raw && ids.includes(objectIdOf(r.raw)))
        .every((r) => r.inbound?.status === 'processed'),
    30_000,
  );
  const me = await b.call<{ user: { following: string } }>('GET', '/auth/me', { token: bob.token });
  const timeline = await b.call<{ orderedItems: Array<{ id: string }> }>(
    'GET',
    `/circles/${me.body.user.following}/posts?limit=50`,
    { token: bob.token },
  );
  expect(timeline.status).toBe(200);
  expect(timeline.body.orderedItems.map((p) => p.id).sort()).toEqual([...ids].sort());
}, 300_000);

interface Logged {
  _id: string;
  type: string;
  raw?: string;
  inbound?: { status: string };
}

function objectIdOf(raw: string): string {
  const a = JSON.parse(raw) as { object?: { id?: string } | string };
  return typeof a.object === 'string' ? a.object : (a.object?.id ?? '');
}
