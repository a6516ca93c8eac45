/**
 * Two forms of `Undo` and an unresolvable mention (docs/federation.md, "ActivityPub"), with a
 * Fedify peer (test/harness/fedify-peer.ts): an Undo of a Like or EmojiReact removes exactly the
 * reaction it names, whether it embeds the reaction or gives only its id; a handle WebFinger does
 * not find is not looked up again by the next post that mentions it.
 */
import { Create, EmojiReact, Like, Undo, type Activity, type Person } from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { ACTIVITIES, type ActivityRecord } from '@agora/common/db';
import { allStored } from '../harness/stored';
import { client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import { startFedifyWorld, type FedifyWorld } from '../harness/fedify-world';

const DOMAIN = 'social.test';
let world: FedifyWorld;
let peer: FedifyPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let fedCtx: Context<void>;
let carolUrl: string;
/** The paths of the requests the peer received, in order. */
const peerRequests: string[] = [];

const rt = () => server.services[0]!.runtime!;
const aliceUrl = `http://${DOMAIN}/ap/users/alice`;
type Item = { id: string; reactCount?: number; reactSummary?: Record<string, number> };

const read = (id: string) => api.get<Item>(`/posts/${encodeURIComponent(id)}`, { token: alice.token });
const carolSends = async (activity: Activity) =>
  fedCtx.sendActivity({ identifier: 'carol' }, (await fedCtx.lookupObject(aliceUrl)) as Person, activity);
async function alicePosts(content: string): Promise<{ id: string; url: string }> {
  const res = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content },
  });
  if (res.status !== 201) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.createdId!;
  return { id, url: `http://${DOMAIN}/ap/objects/${encodeURIComponent(id)}` };
}
async function outcomeOf(remoteId: string): Promise<ActivityRecord['inbound']> {
  let found: ActivityRecord | undefined;
  await waitFor(async () => {
    const docs = await allStored<ActivityRecord & { _id: string }>(rt().db.engine, ACTIVITIES);
    found = docs.find((d) => d.remoteId === remoteId && d.inbound?.status !== 'accepted');
    return !!found;
  }, 20_000);
  return found?.inbound;
}

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN);
  ({ peer, server, api, fedCtx } = world);
  // Every request reaching the peer passes through its federation's `fetch`: noted by path.
  const federation = peer.federation;
  const handle = federation.fetch.bind(federation);
  federation.fetch = (request, options) => {
    const url = new URL(request.url);
    peerRequests.push(`${url.pathname}${url.search}`);
    return handle(request, options);
  };
  alice = await registerActor(api, 'alice');
  carolUrl = peer.actorUrl('carol');
});
afterAll(async () => {
  await world?.close();
});

describe('Undo of a reaction removes exactly the reaction it names', () => {
  test('a Like undone by its embedded activity, another undone by its id alone', async () => {
    const first = await alicePosts('like me');
    const second = await alicePosts('like me too');
    const likeOf = (post: { url: string }, n: number) =>
      new Like({
        id: new URL(`${carolUrl}#likes/${n}`),
        actor: new URL(carolUrl),
        object: new URL(post.url),
      });
    const one = likeOf(first, 1);
    const two = likeOf(second, 2);
    await carolSends(one);
    await carolSends(two);
    await waitFor(async () => (await read(first.id)).body.reactSummary?.['👍'] === 1, 20_000);
    await waitFor(async () => (await read(second.id)).body.reactSummary?.['👍'] === 1, 20_000);

    // Only the id, as a string: the reaction on the second post goes, the first stays.
    await carolSends(
      new Undo({
        id: new URL(`${carolUrl}#likes/2/undo`),
        actor: new URL(carolUrl),
        object: new URL(`${carolUrl}#likes/2`),
      }),
    );
    expect(await outcomeOf(`${carolUrl}#likes/2/undo`)).toMatchObject({ status: 'processed' });
    expect((await read(second.id)).body.reactCount).toBe(0);
    expect((await read(first.id)).body.reactSummary?.['👍']).toBe(1);

    // The embedded Like: the first one goes.
    await carolSends(
      new Undo({ id: new URL(`${carolUrl}#likes/1/undo`), actor: new URL(carolUrl), object: one }),
    );
    expect(await outcomeOf(`${carolUrl}#likes/1/undo`)).toMatchObject({ status: 'processed' });
    expect((await read(first.id)).body.reactCount).toBe(0);
  });

  test('an EmojiReact undone by its embedded activity, another undone by its id alone', async () => {
    const first = await alicePosts('react to me');
    const second = await alicePosts('react to me too');
    const reactOf = (post: { url: string }, n: number, content: string) =>
      new EmojiReact({
        id: new URL(`${carolUrl}#reacts/${n}`),
        actor: new URL(carolUrl),
        object: new URL(post.url),
        content,
      });
    const one = reactOf(first, 1, '🎉');
    await carolSends(one);
    await carolSends(reactOf(second, 2, '🔥'));
    await waitFor(async () => (await read(first.id)).body.reactSummary?.['🎉'] === 1, 20_000);
    await waitFor(async () => (await read(second.id)).body.reactSummary?.['🔥'] === 1, 20_000);

    await carolSends(
      new Undo({
        id: new URL(`${carolUrl}#reacts/2/undo`),
        actor: new URL(carolUrl),
        object: new URL(`${carolUrl}#reacts/2`),
      }),
    );
    expect(await outcomeOf(`${carolUrl}#reacts/2/undo`)).toMatchObject({ status: 'processed' });
    expect((await read(second.id)).body.reactCount).toBe(0);
    expect((await read(first.id)).body.reactSummary?.['🎉']).toBe(1);

    await carolSends(
      new Undo({ id: new URL(`${carolUrl}#reacts/1/undo`), actor: new URL(carolUrl), object: one }),
    );
    expect(await outcomeOf(`${carolUrl}#reacts/1/undo`)).toMatchObject({ status: 'processed' });
    expect((await read(first.id)).body.reactCount).toBe(0);
  });

  test('an Undo naming a reaction that is no longer the current one removes nothing', async () => {
    const post = await alicePosts('changing my mind');
    await carolSends(
      new Like({ id: new URL(`${carolUrl}#likes/3`), actor: new URL(carolUrl), object: new URL(post.url) }),
    );
    await waitFor(async () => (await read(post.id)).body.reactSummary?.['👍'] === 1, 20_000);
    // A new reaction replaces the Like (one per author and target).
    await carolSends(
      new EmojiReact({
        id: new URL(`${carolUrl}#reacts/3`),
        actor: new URL(carolUrl),
        object: new URL(post.url),
        content: '🌟',
      }),
    );
    await waitFor(async () => (await read(post.id)).body.reactSummary?.['🌟'] === 1, 20_000);
    await carolSends(
      new Undo({
        id: new URL(`${carolUrl}#likes/3/undo`),
        actor: new URL(carolUrl),
        object: new URL(`${carolUrl}#likes/3`),
      }),
    );
    // Recorded as what it was: an Undo of a reaction not held here, not an Undo of something unknown.
    expect(await outcomeOf(`${carolUrl}#likes/3/undo`)).toMatchObject({
      status: 'ignored',
      reason: 'no reaction of this author has that id here',
    });
    expect((await read(post.id)).body.reactSummary?.['🌟']).toBe(1);
  });

  test('an Undo by id alone of a reaction undone already removes nothing, and says so', async () => {
    const post = await alicePosts('liked once');
    const like = new Like({
      id: new URL(`${carolUrl}#likes/4`),
      actor: new URL(carolUrl),
      object: new URL(post.url),
    });
    await carolSends(like);
    await waitFor(async () => (await read(post.id)).body.reactSummary?.['👍'] === 1, 20_000);
    const undo = (n: number) =>
      new Undo({ id: new URL(`${carolUrl}#likes/4/undo/${n}`), actor: new URL(carolUrl), object: like.id });
    await carolSends(undo(1));
    expect(await outcomeOf(`${carolUrl}#likes/4/undo/1`)).toMatchObject({ status: 'processed' });
    // Sent again (another id: a retry of another server's making).
    await carolSends(undo(2));
    expect(await outcomeOf(`${carolUrl}#likes/4/undo/2`)).toMatchObject({
      status: 'ignored',
      reason: 'no reaction of this author has that id here',
    });
    expect((await read(post.id)).body.reactCount).toBe(0);
  });
});

test('a handle WebFinger does not find is not looked up again by the next post that mentions it', async () => {
  const webfingers = () =>
    peerRequests.filter((p) => p.startsWith('/.well-known/webfinger') && p.includes('nobody')).length;
  /** alice mentions nobody (unknown at the peer) and dave: dave's copy arriving means the plan ran. */
  const mention = async (text: string) => {
    await alicePosts(`${text}: @nobody@peer.test and @dave@peer.test`);
    await waitFor(async () => {
      for (const a of peer.inbox)
        if (a instanceof Create && String((await a.getObject())?.content).includes(`${text}:`)) return true;
      return false;
    }, 20_000);
  };
  await mention('first');
  const looked = webfingers();
  expect(looked).toBeGreaterThan(0);
  await mention('second');
  expect(webfingers()).toBe(looked);
});
