/**
 * Cached circle timelines never show what a write has changed: every write that touches a
 * circle's rows, its posts, its members or the viewer is visible on the next read. Run with the
 * in-process stamp store (standalone without Redis) and with Redis stamps (the cluster's).
 */
import mongoose from 'mongoose';
import { registerModels } from '@agora/common';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { testEnv, uniqueName } from '../harness/env';

type Item = { id: string; body?: string; replyCount?: number; reactCount?: number };

const setups: Array<[string, Record<string, string>]> = [
  ['in-process stamps', { TIMELINE_CACHE_SECONDS: '2' }],
  ['Redis stamps', { REDIS_URL: testEnv.redisUrl, REDIS_PREFIX: `${uniqueName('tlc')}:` }],
];

describe.each(setups)('timeline cache with %s', (_name, env) => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let alice: Actor, bob: Actor, carol: Actor;
  let circle: string;
  let postId: string;

  const send = async (actor: Actor, activity: Record<string, unknown>) => {
    const res = await outbox(api, actor, activity);
    if (res.status !== 201)
      throw new Error(`${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const timeline = async (actor: Actor, id = circle) => {
    const res = await api.get<{ orderedItems: Item[] }>(`/circles/${id}/posts`, { token: actor.token });
    if (res.status !== 200) return res.status;
    return res.body.orderedItems;
  };
  const find = async (actor: Actor, id: string) => {
    const items = await timeline(actor);
    return typeof items === 'number' ? undefined : items.find((i) => i.id === id);
  };

  beforeAll(async () => {
    server = await bootServer(env);
    api = client(server.url);
    [alice, bob, carol] = (await Promise.all(
      ['alice', 'bob', 'carol'].map((n) => registerActor(api, n)),
    )) as [Actor, Actor, Actor];
    // alice's circle holds bob: his posts make its timeline, which alice reads.
    circle = (
      await send(alice, { type: 'Create', objectType: 'Circle', to: alice.id, object: { name: 'Pals' } })
    ).createdId!;
    await send(alice, { type: 'Add', target: circle, object: bob.id });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('a new post shows on the next read', async () => {
    expect(await timeline(alice)).toEqual([]);
    postId = (
      await send(bob, {
        type: 'Create',
        objectType: 'Post',
        to: '@public',
        object: { content: 'first words' },
      })
    ).createdId!;
    expect((await find(alice, postId))?.body).toContain('first words');
  });

  test('an edit, a reply and a reaction show on the next read', async () => {
    await timeline(alice);
    await send(bob, { type: 'Update', target: postId, object: { content: 'second thoughts' } });
    expect((await find(alice, postId))?.body).toContain('second thoughts');
    await send(carol, { type: 'Reply', objectType: 'Reply', to: postId, object: { content: 'hi bob' } });
    expect(await find(alice, postId)).toMatchObject({ replyCount: 1 });
    await send(carol, { type: 'React', to: postId, object: { emoji: '🎉' } });
    expect(await find(alice, postId)).toMatchObject({ reactCount: 1 });
  });

  test("the viewer's own reaction and mute show on the next read", async () => {
    await send(alice, { type: 'React', to: postId, object: { emoji: '👍' } });
    expect(await find(alice, postId)).toMatchObject({ reactCount: 2, myReact: '👍' });
    await send(alice, { type: 'Mute', target: bob.id });
    expect(await find(alice, postId)).toBeUndefined();
    await send(alice, { type: 'Unmute', target: bob.id });
    expect(await find(alice, postId)).toBeDefined();
  });

  test('an audience change and a delete show on the next read', async () => {
    const secret = (
      await send(bob, { type: 'Create', objectType: 'Circle', to: bob.id, object: { name: 'S' } })
    ).createdId!;
    await send(bob, { type: 'Add', target: secret, object: carol.id });
    const other = (
      await send(bob, {
        type: 'Create',
        objectType: 'Post',
        to: '@public',
        object: { content: 'soon private' },
      })
    ).createdId!;
    expect(await find(alice, other)).toBeDefined();
    await send(bob, { type: 'Update', target: other, object: { to: secret } });
    expect(await find(alice, other)).toBeUndefined();
    await send(bob, { type: 'Delete', target: postId });
    expect(await find(alice, postId)).toBeUndefined();
  });

  test('a removed member loses the timeline at once, and their posts leave it', async () => {
    const shared = (
      await send(alice, { type: 'Create', objectType: 'Circle', to: alice.id, object: { name: 'Door' } })
    ).createdId!;
    await send(alice, { type: 'Add', target: shared, object: [bob.id, carol.id] });
    const said = (
      await send(carol, {
        type: 'Create',
        objectType: 'Post',
        to: '@public',
        object: { content: 'in the door' },
      })
    ).createdId!;
    const seen = await timeline(bob, shared);
    expect(Array.isArray(seen) && seen.map((i) => i.id)).toContain(said);
    await send(alice, { type: 'Remove', target: shared, object: bob.id });
    expect(await timeline(bob, shared)).toBe(404);
    await send(alice, { type: 'Remove', target: shared, object: carol.id });
    expect(await timeline(alice, shared)).toEqual([]);
  });

  if (env.TIMELINE_CACHE_SECONDS) {
    test('pages are served from the cache, and no longer than TIMELINE_CACHE_SECONDS', async () => {
      const id = (
        await send(bob, {
          type: 'Create',
          objectType: 'Post',
          to: '@public',
          object: { content: 'cached text' },
        })
      ).createdId!;
      expect((await find(alice, id))?.body).toContain('cached text');
      // A change made behind the server's back (no stamp moves) is not seen while the page is cached...
      const conn = await mongoose.createConnection(server.config.MONGO_URL!).asPromise();
      await registerModels(conn).Post.updateOne({ id }, { $set: { body: '<p>changed underneath</p>' } });
      await conn.close();
      expect((await find(alice, id))?.body).toContain('cached text');
      // ...and is seen once the entry's time is up.
      await new Promise((r) => setTimeout(r, 2100));
      expect((await find(alice, id))?.body).toContain('changed underneath');
    });
  }
});
