/**
 * Cached circle timelines never show what a write has changed: every write that touches a
 * circle's rows, its posts, its members or the viewer is visible on the next read. Run with the
 * in-process stamp store (standalone without Redis), with Redis stamps (the cluster's), and with
 * the cache off (each page built from the circle and user record the request already loaded).
 */
import { POSTS } from '@agora/common/db';
import { openSqlite } from '@agora/common/db/engine';
import { sqlitePathOf } from '@agora/common/runtime';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { testEnv, uniqueName } from '../harness/env';

type Item = { id: string; body?: string; replyCount?: number; reactCount?: number };

const setups: Array<[string, Record<string, string>]> = [
  ['in-process stamps', { TIMELINE_CACHE_SECONDS: '2' }],
  ['Redis stamps', { REDIS_URL: testEnv.redisUrl, REDIS_PREFIX: `${uniqueName('tlc')}:` }],
  ['the cache off', { TIMELINE_CACHE_ENTRIES: '0' }],
];

describe.each(setups)('timeline cache with %s', (_name, env) => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let n = 0;

  const send = async (actor: Actor, activity: Record<string, unknown>) => {
    const res = await outbox(api, actor, activity);
    if (res.status !== 201)
      throw new Error(`${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** The timeline as the actor reads it; any answer but 200 fails the test here. */
  const timeline = async (actor: Actor, id: string) => {
    const res = await api.get<{ orderedItems: Item[] }>(`/circles/${id}/posts`, { token: actor.token });
    if (res.status !== 200)
      throw new Error(`GET /circles/${id}/posts as ${actor.id}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.orderedItems;
  };
  const find = async (actor: Actor, circle: string, id: string) =>
    (await timeline(actor, circle)).find((i) => i.id === id);
  const post = async (actor: Actor, content: string) =>
    (await send(actor, { type: 'Create', objectType: 'Post', to: '@public', object: { content } }))
      .createdId!;

  /**
   * Each test's own fixture: new users (so no other test's posts, reactions or mutes are in
   * sight) and alice's circle holding bob, whose posts make its timeline, which alice reads.
   */
  const fixture = async () => {
    const tag = (n += 1);
    const [alice, bob, carol] = (await Promise.all(
      ['alice', 'bob', 'carol'].map((name) => registerActor(api, `${name}${tag}`)),
    )) as [Actor, Actor, Actor];
    const circle = (
      await send(alice, { type: 'Create', objectType: 'Circle', to: alice.id, object: { name: 'Pals' } })
    ).createdId!;
    await send(alice, { type: 'Add', target: circle, object: bob.id });
    return { alice, bob, carol, circle };
  };

  beforeAll(async () => {
    server = await bootServer(env);
    api = client(server.url);
  });
  afterAll(async () => {
    await server?.close();
  });

  test('a new post shows on the next read', async () => {
    const { alice, bob, circle } = await fixture();
    expect(await timeline(alice, circle)).toEqual([]);
    const postId = await post(bob, 'first words');
    expect((await find(alice, circle, postId))?.body).toContain('first words');
  });

  test('an edit, a reply and a reaction show on the next read', async () => {
    const { alice, bob, carol, circle } = await fixture();
    const postId = await post(bob, 'first words');
    expect(await find(alice, circle, postId)).toMatchObject({ replyCount: 0, reactCount: 0 });
    await send(bob, { type: 'Update', target: postId, object: { content: 'second thoughts' } });
    expect((await find(alice, circle, postId))?.body).toContain('second thoughts');
    await send(carol, { type: 'Reply', objectType: 'Reply', to: postId, object: { content: 'hi bob' } });
    expect(await find(alice, circle, postId)).toMatchObject({ replyCount: 1 });
    await send(carol, { type: 'React', to: postId, object: { emoji: '🎉' } });
    expect(await find(alice, circle, postId)).toMatchObject({ reactCount: 1 });
  });

  test("the viewer's own reaction and mute show on the next read", async () => {
    const { alice, bob, circle } = await fixture();
    const postId = await post(bob, 'react to me');
    expect(await find(alice, circle, postId)).toMatchObject({ reactCount: 0 });
    await send(alice, { type: 'React', to: postId, object: { emoji: '👍' } });
    expect(await find(alice, circle, postId)).toMatchObject({ reactCount: 1, myReact: '👍' });
    await send(alice, { type: 'Mute', target: bob.id });
    expect(await timeline(alice, circle)).toEqual([]);
    await send(alice, { type: 'Unmute', target: bob.id });
    expect(await find(alice, circle, postId)).toMatchObject({ id: postId });
  });

  test('an audience change and a delete show on the next read', async () => {
    const { alice, bob, carol, circle } = await fixture();
    const postId = await post(bob, 'to be deleted');
    const secret = (
      await send(bob, { type: 'Create', objectType: 'Circle', to: bob.id, object: { name: 'S' } })
    ).createdId!;
    await send(bob, { type: 'Add', target: secret, object: carol.id });
    const other = await post(bob, 'soon private');
    expect((await timeline(alice, circle)).map((i) => i.id).sort()).toEqual([postId, other].sort());
    await send(bob, { type: 'Update', target: other, object: { to: secret } });
    expect((await timeline(alice, circle)).map((i) => i.id)).toEqual([postId]);
    await send(bob, { type: 'Delete', target: postId });
    expect(await timeline(alice, circle)).toEqual([]);
  });

  test('a removed member loses the timeline at once, and their posts leave it', async () => {
    const { alice, bob, carol } = await fixture();
    const shared = (
      await send(alice, { type: 'Create', objectType: 'Circle', to: alice.id, object: { name: 'Door' } })
    ).createdId!;
    await send(alice, { type: 'Add', target: shared, object: [bob.id, carol.id] });
    const said = await post(carol, 'in the door');
    expect((await timeline(bob, shared)).map((i) => i.id)).toContain(said);
    await send(alice, { type: 'Remove', target: shared, object: bob.id });
    // Spec 4.2 rule 3: a signed-in non-member is 403 (the cached access must not outlive removal).
    const refused = await api.get(`/circles/${shared}/posts`, { token: bob.token });
    expect(refused.status).toBe(403);
    await send(alice, { type: 'Remove', target: shared, object: carol.id });
    expect(await timeline(alice, shared)).toEqual([]);
  });

  if (env.TIMELINE_CACHE_SECONDS) {
    test('pages are served from the cache, and no longer than TIMELINE_CACHE_SECONDS', async () => {
      const { alice, bob, circle } = await fixture();
      const id = await post(bob, 'cached text');
      expect((await find(alice, circle, id))?.body).toContain('cached text');
      // A change made behind the server's back (no stamp moves) is not seen while the page is cached...
      const other = openSqlite({ path: sqlitePathOf(server.config) });
      await other.collection(POSTS).updateOne({ _id: id }, { $set: { body: '<p>changed underneath</p>' } });
      await other.close();
      expect((await find(alice, circle, id))?.body).toContain('cached text');
      // ...and is seen once the entry's time is up.
      await new Promise((r) => setTimeout(r, 2100));
      expect((await find(alice, circle, id))?.body).toContain('changed underneath');
    });
  }
});
