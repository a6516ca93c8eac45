/**
 * What the ActivityPub side shows of itself (issue 24, docs/federation.md "ActivityPub"), with a
 * Fedify peer (test/harness/fedify-peer.ts): remote lookups of an actor met by URL ask it as
 * ActivityPub; an outbound Follow is `pending` until the actor answers, and a Reject takes the
 * actor out of the Following circle; `followers` lists local followers too; the outbox can be
 * walked past 50 pages; `/users/<name>` publishes the user's own key.
 */
import { Follow, Reject, type Person } from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { client, waitFor, type JsonResponse, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import { startFedifyWorld, type FedifyWorld } from '../harness/fedify-world';

const DOMAIN = 'social.test';
const AP = { accept: 'application/activity+json' };
let world: FedifyWorld;
let peer: FedifyPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let bob: Actor;
let fedCtx: Context<void>;

const rt = () => server.services[0]!.runtime!;

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN);
  ({ peer, server, api, fedCtx } = world);
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
});
afterAll(async () => {
  await world?.close();
});

test("mode=remote asks an ActivityPub actor's own URL; a Follow is pending until the actor answers, and a Reject ends it", async () => {
  peer.acceptFollows = false;
  try {
    expect((await outbox(api, alice, { type: 'Follow', object: '@dave@peer.test' })).status).toBe(201);
    const looked = () =>
      api.get<{ item: Record<string, unknown> }>(
        `/users/${encodeURIComponent('@dave@peer.test')}?mode=remote`,
        {
          token: alice.token,
        },
      );
    await waitFor(async () => (await looked()).body.item?.followState === 'pending', 20_000);
    expect((await looked()).body.item).toMatchObject({
      id: '@dave@peer.test',
      name: 'Dave',
      username: 'dave',
      originDomain: 'peer.test',
      followState: 'pending',
    });
    // Another user sees the profile, not alice's follow.
    const other = await api.get<{ item: Record<string, unknown> }>(
      `/users/${encodeURIComponent('@dave@peer.test')}?mode=remote`,
      { token: bob.token },
    );
    expect(other.status).toBe(200);
    expect(other.body.item.followState).toBeUndefined();

    // `pending` is recorded when the Follow is planned; its delivery to the peer comes after.
    const followOfDave = () =>
      peer.inbox.find((a) => a instanceof Follow && a.objectId?.href === peer.actorUrl('dave'));
    await waitFor(() => Promise.resolve(followOfDave() !== undefined), 20_000);
    const follow = followOfDave();
    expect(follow).toBeDefined();
    const aliceActor = (await fedCtx.lookupObject(`http://${DOMAIN}/ap/users/alice`)) as Person;
    await fedCtx.sendActivity(
      { identifier: 'dave' },
      aliceActor,
      new Reject({
        id: new URL(`${peer.actorUrl('dave')}#reject-alice`),
        actor: new URL(peer.actorUrl('dave')),
        object: follow,
      }),
    );
    await waitFor(async () => (await looked()).body.item?.followState === 'rejected', 20_000);
    const me = await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token });
    const members = await rt().repos.circles.memberIds(me.body.user.following);
    expect(members).not.toContain('@dave@peer.test');
  } finally {
    peer.acceptFollows = true;
  }
});

test('the followers collection lists local followers beside remote ones', async () => {
  expect((await outbox(api, bob, { type: 'Follow', object: alice.id })).status).toBe(201);
  const res = await api.get<{ totalItems: number; orderedItems: string[] }>(
    '/ap/users/alice/followers?page=1',
    {
      headers: AP,
    },
  );
  expect(res.body.orderedItems).toEqual([`http://${DOMAIN}/ap/users/bob`]);
  expect(res.body.totalItems).toBe(1);
});

test("the outbox's next links go past page 50", async () => {
  const author = await registerActor(api, 'prolific');
  const at = Date.now() - 2_000_000;
  for (let i = 0; i < 50 * 20 + 5; i++)
    await rt().repos.posts.createLocal({
      id: `post:bulk${i}@${DOMAIN}`,
      objectType: 'Post',
      type: 'Note',
      actorId: author.id,
      body: `<p>${i}</p>`,
      to: '@public',
      canReply: '@public',
      canReact: '@public',
      publishedAt: new Date(at + i * 1000),
    });
  let next: string | undefined = `http://${DOMAIN}/ap/users/prolific/outbox?page=1`;
  const seen: string[] = [];
  let pages = 0;
  type Page = { next?: string; orderedItems: Array<{ object: { id: string } }> };
  while (next) {
    const res: JsonResponse<Page> = await api.get<Page>(next.replace(`http://${DOMAIN}`, ''), {
      headers: AP,
    });
    expect(res.status).toBe(200);
    seen.push(...res.body.orderedItems.map((a) => a.object.id));
    next = res.body.next;
    pages++;
  }
  expect(pages).toBe(51);
  expect(seen).toHaveLength(1005);
  expect(new Set(seen).size).toBe(1005);
  expect(seen.at(-1)).toBe(`http://${DOMAIN}/ap/objects/${encodeURIComponent(`post:bulk0@${DOMAIN}`)}`);
});

test("/users/<name> as ActivityPub publishes the user's own key, as /ap/users/<name> does", async () => {
  const spec = await api.get<{ publicKey: { publicKeyPem: string } }>('/users/alice', { headers: AP });
  const ap = await api.get<{ publicKey: { publicKeyPem: string } }>('/ap/users/alice', { headers: AP });
  expect(spec.body.publicKey.publicKeyPem).toBe(ap.body.publicKey.publicKeyPem);
  expect(spec.body.publicKey.publicKeyPem).not.toBe(await rt().repos.settings.get<string>('publicKey'));
});
