/** The GC worker removes content soft-deleted past the retention window, and nothing else. */
import { runGc } from '../../services/social/src/workers/gc';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor } from '../harness/actors';

let server: TestServer;
beforeAll(async () => {
  server = await bootServer();
});
afterAll(async () => {
  await server?.close();
});

test('old soft-deleted posts go with their timeline rows and reacts; recent and live ones stay', async () => {
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
  const { Post, TimelineEntry } = rt.repos.models;
  const now = Date.now();
  await Post.updateOne({ id: ids[0] }, { $set: { deletedAt: new Date(now - 40 * 86_400_000) } });
  await Post.updateOne({ id: ids[1] }, { $set: { deletedAt: new Date(now - 2 * 86_400_000) } });
  expect(await TimelineEntry.countDocuments({ postId: ids[0] })).toBeGreaterThan(0); // alice's Following circle

  const report = await runGc(rt);
  expect(report.removed.posts).toBe(1);
  expect(await Post.countDocuments({ id: ids[0] })).toBe(0);
  expect(await TimelineEntry.countDocuments({ postId: ids[0] })).toBe(0);
  expect(await Post.countDocuments({ id: { $in: [ids[1]!, ids[2]!] } })).toBe(2);

  // A shorter retention setting takes the recent one too.
  await rt.repos.settings.set('gcRetentionDays', 1);
  expect((await runGc(rt)).removed.posts).toBe(1);
  expect(await Post.countDocuments({ id: ids[2] })).toBe(1);
});
