/** The GC worker removes content soft-deleted past the retention window, and nothing else. */
import { runGc } from '../../services/social/src/workers/gc';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor } from '../harness/actors';
import { LISTS } from '@agora/common/db';
import type { Runtime } from '@agora/common/runtime';
import { createSocialContext } from '../../services/social/src/context';

let server: TestServer;
beforeAll(async () => {
  server = await bootServer();
});
afterAll(async () => {
  await server?.close();
});

async function listed(rt: Runtime, key: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of rt.repos.lists.newest([key])) out.push(e.id);
  return out;
}

test('deleted posts leave their lists at once; the GC removes old ones for good, with their reacts', async () => {
  const api = client(server.url);
  const alice = await registerActor(api, 'alice');
  const ids: string[] = [];
  for (const content of ['old deleted', 'recent deleted', 'live']) {
    const res = await outbox(api, alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content },
    });
    ids.push(res.body.createdId!);
  }
  const rt = server.services[0]!.runtime!;
  // bob follows alice: her posts are backfilled into bob's Following timeline.
  const bob = await registerActor(api, 'bob');
  expect((await outbox(api, bob, { type: 'Follow', object: alice.id })).status).toBe(201);
  const following = String((await rt.repos.users.findById(bob.id))?.circles?.following);
  expect(await listed(rt, LISTS.circle(following))).toContain(ids[0]);
  await outbox(api, alice, { type: 'React', to: ids[0], object: { emoji: '👍' } });
  expect(await listed(rt, LISTS.author(alice.id))).toEqual([ids[2], ids[1], ids[0]]);
  for (const id of [ids[0]!, ids[1]!]) await outbox(api, alice, { type: 'Delete', target: id });
  expect(await listed(rt, LISTS.author(alice.id))).toEqual([ids[2]]);
  expect(await listed(rt, LISTS.public)).toEqual([ids[2]]);
  expect(await listed(rt, LISTS.circle(following))).not.toContain(ids[0]);

  const now = Date.now();
  await rt.repos.posts.set(ids[0]!, { deletedAt: new Date(now - 40 * 86_400_000) });
  await rt.repos.posts.set(ids[1]!, { deletedAt: new Date(now - 2 * 86_400_000) });
  const report = await runGc(createSocialContext(rt));
  expect(report.removed.posts).toBe(1);
  expect(report.removed.reacts).toBe(1);
  expect(await rt.repos.posts.byId(ids[0]!)).toBeNull();
  expect(await rt.repos.reacts.mine(alice.id, ids[0]!)).toBeNull();
  expect(await rt.repos.posts.byId(ids[1]!)).not.toBeNull();
  expect(await rt.repos.posts.liveById(ids[2]!)).not.toBeNull();

  // A shorter retention setting takes the recent one too.
  await rt.repos.settings.set('gcRetentionDays', 1);
  expect((await runGc(createSocialContext(rt))).removed.posts).toBe(1);
  expect(await rt.repos.posts.liveById(ids[2]!)).not.toBeNull();
});
