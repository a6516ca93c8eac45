/**
 * Boosts from here on the ActivityPub wire (ADR 0024, docs/federation.md "ActivityPub"), against
 * a Fedify peer (test/harness/fedify-peer.ts): a local user's share goes as an `Announce` of the
 * original's URL by the sharer (to Public, cc her followers and the original's author), to her
 * followers there and to the original's author's server, signed with her key; its Undo goes as
 * the `Undo` of that Announce. What reaches the peer's inbox has passed Fedify's own signature and
 * key-ownership checks.
 */
import {
  Announce,
  Create,
  Follow,
  Note,
  OrderedCollectionPage,
  Person,
  PUBLIC_COLLECTION,
  Undo,
  type Activity,
} from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import {
  createOf,
  expandStrictly,
  publicNote,
  startFedifyWorld,
  type FedifyWorld,
} from '../harness/fedify-world';
import { remoteObjectIdFor } from '../../services/federation/src/activitypub/ids';

const DOMAIN = 'social.test';
let world: FedifyWorld;
let peer: FedifyPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let bob: Actor;
let fedCtx: Context<void>;

const rt = () => server.services[0]!.runtime!;
const aliceUrl = `http://${DOMAIN}/ap/users/alice`;
const bobUrl = `http://${DOMAIN}/ap/users/bob`;
const objectUrl = (id: string) => `http://${DOMAIN}/ap/objects/${encodeURIComponent(id)}`;

const person = async (url: string) => (await fedCtx.lookupObject(url)) as Person;
const peerSends = async (who: string, to: string, activity: Activity) =>
  fedCtx.sendActivity({ identifier: who }, await person(to), activity);
const send = async (activity: Record<string, unknown>, who: Actor = alice) => {
  const res = await outbox(api, who, activity);
  if (res.status !== 201) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
};
/** The last activity at the peer's inbox that passes `match` (awaited). */
async function arrived<T extends Activity>(match: (a: Activity) => boolean): Promise<T> {
  let found: Activity | undefined;
  await waitFor(() => {
    found = peer.inbox.filter(match).at(-1);
    return Promise.resolve(!!found);
  }, 20_000);
  return found as T;
}
const hrefs = (urls: readonly URL[]) => urls.map((u) => u.href);

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN);
  ({ peer, server, api, fedCtx } = world);
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
});

afterAll(async () => {
  await world?.close();
});

test("alice's boost of dave's post reaches dave's server as an Announce of his Note, though nobody there follows her", async () => {
  const daveUrl = peer.actorUrl('dave');
  const noteUrl = `${daveUrl}/notes/boost-me`;
  const note = publicNote(daveUrl, noteUrl, '<p>dave writes</p>');
  peer.notes.set(noteUrl, note);
  await peerSends('dave', aliceUrl, createOf(note));
  const held = remoteObjectIdFor(noteUrl);
  await waitFor(async () => !!(await rt().repos.posts.byId(held)), 20_000);

  const shareId = await send({ type: 'Announce', object: held });
  const announce = await arrived<Announce>((a) => a instanceof Announce && a.objectId?.href === noteUrl);
  expect(announce.id?.href).toBe(`${objectUrl(shareId)}#announce`);
  expect(announce.actorId?.href).toBe(aliceUrl);
  expect(hrefs(announce.toIds)).toEqual([PUBLIC_COLLECTION.href]);
  expect(hrefs(announce.ccIds)).toEqual([`${aliceUrl}/followers`, daveUrl]);
});

test("carol (a follower of alice) receives her boost of bob's post as an Announce she can follow to the Note, then its Undo", async () => {
  const carolUrl = peer.actorUrl('carol');
  await peerSends(
    'carol',
    aliceUrl,
    new Follow({
      id: new URL(`${carolUrl}#follow-alice`),
      actor: new URL(carolUrl),
      object: new URL(aliceUrl),
    }),
  );
  await waitFor(async () => (await rt().repos.followers.ofUser(alice.id)).length === 1, 20_000);

  const original = await send(
    { type: 'Create', objectType: 'Post', object: { content: 'bob says *hi*' }, to: '@public' },
    bob,
  );
  const shareId = await send({ type: 'Announce', object: original });
  const announce = await arrived<Announce>(
    (a) => a instanceof Announce && a.objectId?.href === objectUrl(original),
  );
  expect(announce.actorId?.href).toBe(aliceUrl);
  expect(announce.id?.href).toBe(`${objectUrl(shareId)}#announce`);
  expect(hrefs(announce.toIds)).toEqual([PUBLIC_COLLECTION.href]);
  expect(hrefs(announce.ccIds)).toEqual([`${aliceUrl}/followers`, bobUrl]);
  // The peer dereferences the original by the URL it was given: bob's Note.
  const shared = await announce.getObject({ documentLoader: fedCtx.documentLoader });
  expect(shared).toBeInstanceOf(Note);
  expect(String((shared as Note).content)).toContain('bob says <em>hi</em>');
  expect((shared as Note).attributionId?.href).toBe(bobUrl);
  // Only the Announce went: not the share's Note as a Create.
  expect(peer.inbox.some((a) => a instanceof Create && a.objectId?.href === objectUrl(shareId))).toBe(false);

  await send({ type: 'Undo', object: shareId });
  const undo = await arrived<Undo>((a) => a instanceof Undo && a.objectId?.href === announce.id?.href);
  expect(undo.actorId?.href).toBe(aliceUrl);
  const undone = await undo.getObject({ documentLoader: fedCtx.documentLoader });
  expect(undone).toBeInstanceOf(Announce);
  expect((undone as Announce).objectId?.href).toBe(objectUrl(original));
});

test("alice's outbox and her share's URL show the share as the Announce she sent, as Mastodon shows a reblog", async () => {
  const original = await send(
    { type: 'Create', objectType: 'Post', object: { content: 'bob, shared and shown' }, to: '@public' },
    bob,
  );
  const shareId = await send({ type: 'Announce', object: original });
  const share = (await rt().repos.posts.byId(shareId))!;
  const announceId = `${objectUrl(shareId)}#announce`;
  const expectSent = (a: Announce) => {
    expect(a.id?.href).toBe(announceId);
    expect(a.actorId?.href).toBe(aliceUrl);
    expect(a.objectId?.href).toBe(objectUrl(original));
    // A Temporal.Instant (its type is not resolved here).
    const published = a.published as unknown as { epochMilliseconds: number } | null;
    expect(published?.epochMilliseconds).toBe(share.publishedAt.getTime());
    expect(hrefs(a.toIds)).toEqual([PUBLIC_COLLECTION.href]);
    expect(hrefs(a.ccIds)).toEqual([`${aliceUrl}/followers`, bobUrl]);
  };

  // The share's URL, dereferenced by Fedify: the Announce, which leads to bob's Note.
  const fetched = await fedCtx.lookupObject(objectUrl(shareId));
  expect(fetched).toBeInstanceOf(Announce);
  expectSent(fetched as Announce);
  const shared = await (fetched as Announce).getObject({ documentLoader: fedCtx.documentLoader });
  expect(String((shared as Note).content)).toContain('bob, shared and shown');

  // Her outbox's first page holds it (newest first), not a Create of a quoting Note.
  const page = await fedCtx.lookupObject(`${aliceUrl}/outbox?page=1`);
  expect(page).toBeInstanceOf(OrderedCollectionPage);
  const items = [];
  for await (const item of (page as OrderedCollectionPage).getItems()) items.push(item);
  expect(items[0]).toBeInstanceOf(Announce);
  expectSent(items[0] as Announce);
  expect(items.some((a) => a instanceof Create && a.objectId?.href === objectUrl(shareId))).toBe(false);

  // Both documents are JSON-LD a strict processor reads whole (nothing undefined, nothing dropped).
  const accept = { accept: 'application/activity+json' };
  const path = new URL(objectUrl(shareId)).pathname;
  for (const url of [path, '/ap/users/alice/outbox?page=1']) {
    const res = await api.get(url, { headers: accept });
    expect([url, res.status]).toEqual([url, 200]);
    await expect(expandStrictly(fedCtx, res.body)).resolves.toHaveLength(1);
  }
  const raw = (await api.get(path, { headers: accept })).body;
  expect(raw).toMatchObject({ id: announceId, type: 'Announce', published: share.publishedAt.toISOString() });

  // Undone, the share's URL answers nothing and the outbox no longer holds it.
  await send({ type: 'Undo', object: shareId });
  expect((await api.get(path, { headers: accept })).status).toBe(404);
  const after = (
    await api.get<{ orderedItems: Array<{ id: string }> }>('/ap/users/alice/outbox?page=1', {
      headers: accept,
    })
  ).body.orderedItems;
  expect(after.map((a) => a.id)).not.toContain(announceId);
});
