/**
 * ActivityPub against an independent implementation (issue 24, docs/federation.md "ActivityPub"):
 * a peer built with Fedify (test/harness/fedify-peer.ts) on loopback, reached through the host
 * map, and this server booted in-process as `social.test`. Stories: discovery by handle; the
 * peer follows alice, gets Accept and receives her next public post, both passing Fedify's own
 * signature and key-ownership checks; alice follows the peer's carol by handle and reads her
 * post in her Following timeline; a hostile peer is refused with nothing stored.
 */
import { signRequest, signRfc9421 } from '@agora/common/federation';
import { Accept, Create, Follow, Note, OrderedCollection, Person, Reject, Undo } from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import { createOf, publicNote, startFedifyWorld, type FedifyWorld } from '../harness/fedify-world';
import { remoteObjectIdFor } from '../../services/federation/src/activitypub/ids';

const DOMAIN = 'social.test';
let world: FedifyWorld;
let peer: FedifyPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let fedCtx: Context<void>;

const rt = () => server.services[0]!.runtime!;
const aliceUrl = `http://${DOMAIN}/ap/users/alice`;

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN);
  ({ peer, server, api, fedCtx } = world);
  alice = await registerActor(api, 'alice');
});
afterAll(async () => {
  await world?.close();
});

test('discovery by handle: WebFinger, the actor document, its own key', async () => {
  const actor = await fedCtx.lookupObject('@alice@social.test');
  expect(actor).toBeInstanceOf(Person);
  const person = actor as Person;
  expect(person.id?.href).toBe(aliceUrl);
  expect(person.preferredUsername).toBe('alice');
  expect(person.inboxId?.href).toBe(`http://${DOMAIN}/users/alice/inbox`);
  const key = await person.getPublicKey();
  expect(key?.ownerId?.href).toBe(aliceUrl);
  // The server actor is an Application, with the server key.
  const app = await fedCtx.lookupObject(`http://${DOMAIN}/ap/actor`);
  expect(app?.constructor.name).toBe('Application');
  const nodeinfo = await api.get<{ links: Array<{ rel: string }> }>('/.well-known/nodeinfo');
  expect(nodeinfo.body.links.map((l) => l.rel)).toContain('http://nodeinfo.diaspora.software/ns/schema/2.1');
  expect((await api.get('/.well-known/webfinger?resource=acct:nobody@social.test')).status).toBe(404);
});

test("the peer follows alice, gets Accept, and receives her next public post (Fedify's checks)", async () => {
  const target = (await fedCtx.lookupObject('@alice@social.test')) as Person;
  const follow = new Follow({
    id: new URL(`${peer.actorUrl('carol')}#follow-alice`),
    actor: fedCtx.getActorUri('carol'),
    object: target.id,
  });
  await fedCtx.sendActivity({ identifier: 'carol' }, target, follow);
  await waitFor(() => Promise.resolve(peer.inbox.some((a) => a instanceof Accept)), 20_000);
  const accept = peer.inbox.find((a) => a instanceof Accept)!;
  expect(accept.actorId?.href).toBe(aliceUrl);
  // The follower row names carol by handle, with the inbox her actor document gives.
  await waitFor(async () => (await rt().repos.followers.ofUser(alice.id)).length === 1, 20_000);
  const [row] = await rt().repos.followers.ofUser(alice.id);
  expect(row).toMatchObject({ actorId: '@carol@peer.test', inbox: 'http://peer.test/inbox' });

  const res = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'hello fediverse' },
  });
  expect(res.status).toBe(201);
  await waitFor(() => Promise.resolve(peer.inbox.some((a) => a instanceof Create)), 20_000);
  const create = peer.inbox.find((a) => a instanceof Create) as Create;
  expect(create.actorId?.href).toBe(aliceUrl);
  const note = await create.getObject();
  expect(note).toBeInstanceOf(Note);
  expect(String(note?.content)).toContain('hello fediverse');
  expect(note?.attributionId?.href).toBe(aliceUrl);
  // The Note's id answers GET as ActivityPub.
  const doc = await fedCtx.lookupObject(note!.id!.href);
  expect(doc).toBeInstanceOf(Note);
});

test('the outbox and followers are paged OrderedCollections; the private Following circle lists no one', async () => {
  const outboxDoc = await fedCtx.lookupObject(`${aliceUrl}/outbox`);
  expect(outboxDoc).toBeInstanceOf(OrderedCollection);
  expect((outboxDoc as OrderedCollection).totalItems).toBe(1);
  const ap = { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' };
  const page = await api.get<{
    type: string;
    orderedItems: Array<{ type: string; object: { attributedTo: string } }>;
  }>('/ap/users/alice/outbox?page=1', { headers: ap });
  expect(page.headers.get('content-type')).toContain('application/ld+json');
  expect(page.body.type).toBe('OrderedCollectionPage');
  expect(page.body.orderedItems.map((a) => [a.type, a.object.attributedTo])).toEqual([['Create', aliceUrl]]);
  const followers = await api.get<{ orderedItems: string[] }>('/ap/users/alice/followers?page=1', {
    headers: ap,
  });
  expect(followers.body.orderedItems).toEqual([peer.actorUrl('carol')]);
  const following = await api.get<{ orderedItems: string[]; totalItems?: number }>(
    '/ap/users/alice/following',
    {
      headers: ap,
    },
  );
  expect(following.body).toMatchObject({ type: 'OrderedCollection', orderedItems: [] });
  expect(following.body.totalItems).toBeUndefined();
});

test("alice follows the peer's carol by handle and reads carol's post in her timeline", async () => {
  const res = await outbox(api, alice, { type: 'Follow', object: '@carol@peer.test' });
  expect(res.status).toBe(201);
  const carolUrl = peer.actorUrl('carol');
  await waitFor(
    async () => (await rt().repos.activityPub.follow(alice.id, carolUrl))?.state === 'accepted',
    20_000,
  );
  const aliceActor = (await fedCtx.lookupObject(aliceUrl)) as Person;
  const noteUrl = `${carolUrl}/notes/1`;
  await fedCtx.sendActivity(
    { identifier: 'carol' },
    aliceActor,
    createOf(publicNote(carolUrl, noteUrl, '<p>from the fediverse</p>')),
  );
  const me = await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token });
  const following = me.body.user.following;
  const timeline = () =>
    api.get<{ orderedItems: Array<{ id: string; actorId: string; body?: string }> }>(
      `/circles/${encodeURIComponent(following)}/posts`,
      { token: alice.token },
    );
  await waitFor(async () => (await timeline()).body.orderedItems?.length > 0, 20_000);
  const [item] = (await timeline()).body.orderedItems;
  expect(item).toMatchObject({ id: remoteObjectIdFor(noteUrl), actorId: '@carol@peer.test' });
  expect(item?.body).toContain('from the fediverse');
});

test('a circle post reaches the peer addressed to carol, its member there, never to the Public collection', async () => {
  const circle = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'Close' },
  });
  const circleId = circle.body.createdId!;
  expect(
    (await outbox(api, alice, { type: 'Add', target: circleId, object: '@carol@peer.test' })).status,
  ).toBe(201);
  expect(
    (
      await outbox(api, alice, {
        type: 'Create',
        objectType: 'Post',
        to: circleId,
        object: { content: 'for the circle' },
      })
    ).status,
  ).toBe(201);
  const isCirclePost = async (a: unknown) =>
    a instanceof Create && String((await a.getObject())?.content ?? '').includes('for the circle');
  await waitFor(async () => (await Promise.all(peer.inbox.map(isCirclePost))).some(Boolean), 20_000);
  const create = peer.inbox[(await Promise.all(peer.inbox.map(isCirclePost))).indexOf(true)] as Create;
  const audience = [...create.toIds, ...create.ccIds].map((u) => u.href);
  expect(audience).toEqual([peer.actorUrl('carol')]);
  const note = await create.getObject();
  expect([...(note?.toIds ?? []), ...(note?.ccIds ?? [])].map((u) => u.href)).toEqual([
    peer.actorUrl('carol'),
  ]);
});

test("carol's Undo of her Follow ends it; dave, blocked by alice, gets Reject and follows nothing", async () => {
  const aliceActor = (await fedCtx.lookupObject(aliceUrl)) as Person;
  const follow = new Follow({
    id: new URL(`${peer.actorUrl('carol')}#follow-alice`),
    actor: fedCtx.getActorUri('carol'),
    object: new URL(aliceUrl),
  });
  await fedCtx.sendActivity(
    { identifier: 'carol' },
    aliceActor,
    new Undo({
      id: new URL(`${peer.actorUrl('carol')}#undo-follow-alice`),
      actor: fedCtx.getActorUri('carol'),
      object: follow,
    }),
  );
  await waitFor(async () => (await rt().repos.followers.ofUser(alice.id)).length === 0, 20_000);

  expect((await outbox(api, alice, { type: 'Block', object: '@dave@peer.test' })).status).toBe(201);
  await fedCtx.sendActivity(
    { identifier: 'dave' },
    aliceActor,
    new Follow({
      id: new URL(`${peer.actorUrl('dave')}#follow-alice`),
      actor: fedCtx.getActorUri('dave'),
      object: new URL(aliceUrl),
    }),
  );
  await waitFor(() => Promise.resolve(peer.inbox.some((a) => a instanceof Reject)), 20_000);
  const reject = peer.inbox.find((a) => a instanceof Reject)!;
  expect(reject.actorId?.href).toBe(aliceUrl);
  expect(await rt().repos.followers.isFollower(alice.id, '@dave@peer.test')).toBe(false);
});

describe('a hostile peer is refused with nothing stored', () => {
  const inbox = `http://${DOMAIN}/users/alice/inbox`;
  let n = 0;
  const note = (actor: string) => {
    const id = `${actor}/notes/hostile-${++n}`;
    return {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${id}#create`,
      type: 'Create',
      actor,
      to: ['https://www.w3.org/ns/activitystreams#Public'],
      object: {
        id,
        type: 'Note',
        attributedTo: actor,
        content: 'forged',
        to: ['https://www.w3.org/ns/activitystreams#Public'],
      },
    };
  };
  // Through the host map (fedify-peer.ts), so the request carries `Host: social.test` as signed.
  const post = (body: string, headers: Record<string, string>) =>
    fetch(inbox, {
      method: 'POST',
      headers: { 'content-type': 'application/activity+json', ...headers },
      body,
    });
  const cavage = (body: string, key: string, keyId: string) =>
    signRequest({ method: 'POST', url: inbox, body, keyId, privateKeyPem: key });
  let logged = 0;
  beforeEach(async () => {
    logged = await rt().repos.activities.count();
  });
  const nothingStored = async (activity: ReturnType<typeof note>) => {
    expect(await rt().repos.posts.byId(remoteObjectIdFor(activity.object.id))).toBeNull();
    expect(await rt().repos.activities.count()).toBe(logged);
  };

  test('an actor of another domain, signed with a key of this one', async () => {
    const a = note('http://evil.test/users/dave');
    const body = JSON.stringify(a);
    const res = await post(
      body,
      cavage(body, peer.keys.carol!.pem.privateKey, `${peer.actorUrl('carol')}#main-key`),
    );
    expect(res.status).toBe(401);
    await nothingStored(a);
  });

  test("dave's activity signed with carol's key (same domain)", async () => {
    const a = note(peer.actorUrl('dave'));
    const body = JSON.stringify(a);
    const res = await post(
      body,
      cavage(body, peer.keys.carol!.pem.privateKey, `${peer.actorUrl('carol')}#main-key`),
    );
    expect(res.status).toBe(401);
    expect(JSON.stringify(await res.json())).toContain("owner is not the activity's actor");
    await nothingStored(a);
  });

  test('a digest that does not match the body', async () => {
    const a = note(peer.actorUrl('carol'));
    const body = JSON.stringify(a);
    const headers = cavage(body, peer.keys.carol!.pem.privateKey, `${peer.actorUrl('carol')}#main-key`);
    const res = await post(body.replace('forged', 'tampered'), headers);
    expect(res.status).toBe(401);
    await nothingStored(a);
  });

  test('RFC 9421 signed with a key other than the one named', async () => {
    const a = note(peer.actorUrl('carol'));
    const body = JSON.stringify(a);
    const headers = signRfc9421({
      method: 'POST',
      url: inbox,
      body,
      keyId: `${peer.actorUrl('carol')}#main-key`,
      privateKeyPem: peer.keys.dave!.pem.privateKey,
    });
    const res = await post(body, headers);
    expect(res.status).toBe(401);
    await nothingStored(a);
  });

  test('a replayed request: accepted once, refused the second time', async () => {
    const a = note(peer.actorUrl('carol'));
    const body = JSON.stringify(a);
    const headers = signRfc9421({
      method: 'POST',
      url: inbox,
      body,
      keyId: `${peer.actorUrl('carol')}#main-key`,
      privateKeyPem: peer.keys.carol!.pem.privateKey,
    });
    expect((await post(body, headers)).status).toBe(202);
    const again = await post(body, headers);
    expect(again.status).toBe(401);
    expect(JSON.stringify(await again.json())).toContain('Replayed');
  });
});
