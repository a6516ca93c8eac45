/**
 * A suspension told by an independent ActivityPub implementation (ADR 0028, docs/federation.md
 * "Suspended accounts"): a Fedify peer (test/harness/fedify-peer.ts) sends the Update of its
 * actor carol marked `suspended` (Mastodon's `toot:suspended`, as Fedify's vocabulary writes it),
 * signed by carol's key; her copies here leave every read (by id, alice's timeline and its total)
 * and come back unchanged on the Update without the flag. Then what Mastodon does when it
 * finally deletes a suspended account and the actor later comes back: a Delete of the actor
 * withdraws its copies for good, a later Update of it revives nothing, and the actor's new posts
 * are taken as anyone's.
 */
import { Delete, Person, PUBLIC_COLLECTION, Update, type Activity } from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { ACTIVITIES, type ActivityRecord } from '@agora/common/db';
import { allStored } from '../harness/stored';
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
let carolUrl: string;
let following: string;

const rt = () => server.services[0]!.runtime!;
const aliceUrl = `http://${DOMAIN}/ap/users/alice`;
const enc = encodeURIComponent;

const carolSends = async (activity: Activity) =>
  fedCtx.sendActivity({ identifier: 'carol' }, (await fedCtx.lookupObject(aliceUrl)) as Person, activity);
const read = (id: string) => api.get<{ body?: string }>(`/posts/${enc(id)}`, { token: alice.token });

let n = 0;
/** A public Note by carol, sent to alice; its id here. */
async function carolPosts(content: string): Promise<string> {
  const url = `${carolUrl}/notes/s${++n}`;
  await carolSends(createOf(publicNote(carolUrl, url, content)));
  const id = remoteObjectIdFor(url);
  await waitFor(async () => (await read(id)).status === 200, 20_000);
  return id;
}

/** carol's actor as her server says it now (`suspended` or not), in an Update of it. */
const carolUpdate = (tag: string, suspended?: boolean) =>
  new Update({
    id: new URL(`${carolUrl}#update-${tag}`),
    actor: new URL(carolUrl),
    to: PUBLIC_COLLECTION,
    object: new Person({
      id: new URL(carolUrl),
      preferredUsername: 'carol',
      name: 'Carol of the peer',
      ...(suspended === undefined ? {} : { suspended }),
    }),
  });

async function timeline() {
  const res = await api.get<{ totalItems: number; orderedItems: Array<{ id: string }> }>(
    `/circles/${enc(following)}/posts`,
    { token: alice.token },
  );
  expect(res.status).toBe(200);
  return { total: res.body.totalItems, ids: res.body.orderedItems.map((p) => p.id) };
}

/** How the inbox settled the activity the peer sent as `remoteId` (awaited). */
async function applied(remoteId: string) {
  let found: ActivityRecord | undefined;
  await waitFor(async () => {
    const docs = await allStored<ActivityRecord & { _id: string }>(rt().db.engine, ACTIVITIES);
    found = docs.find((d) => d.remoteId === remoteId && d.inbound?.status !== 'accepted');
    return !!found;
  }, 20_000);
  return found?.inbound?.status;
}

const suspendedHere = async () => (await rt().repos.remoteSuspensions.ids()).length;

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN);
  ({ peer, server, api, fedCtx } = world);
  alice = await registerActor(api, 'alice');
  carolUrl = peer.actorUrl('carol');
  const me = await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token });
  following = me.body.user.following;
  // alice follows carol (the peer accepts): carol's posts reach alice's timeline.
  expect((await outbox(api, alice, { type: 'Follow', object: '@carol@peer.test' })).status).toBe(201);
  await waitFor(
    async () => (await rt().repos.activityPub.follow(alice.id, carolUrl))?.state === 'accepted',
    20_000,
  );
});
afterAll(async () => {
  await world?.close();
});

test("a Fedify actor's Update with `suspended: true` hides its copies here; the Update without it shows them again, unchanged", async () => {
  const first = await carolPosts('<p>The beam turns at dusk</p>');
  const second = await carolPosts('<p>Fog expected tonight</p>');
  await waitFor(async () => (await timeline()).total === 2, 20_000);
  const before = { timeline: await timeline(), first: (await read(first)).body.body };
  expect(before.timeline.ids.sort()).toEqual([first, second].sort());

  await carolSends(carolUpdate('suspend', true));
  await waitFor(async () => (await read(first)).status === 404, 20_000);
  expect((await read(second)).status).toBe(404);
  expect(await timeline()).toEqual({ total: 0, ids: [] });
  expect(await suspendedHere()).toBe(1);

  // Mastodon's unsuspension: the Update without the flag.
  await carolSends(carolUpdate('restore'));
  await waitFor(async () => (await read(first)).status === 200, 20_000);
  expect({ timeline: await timeline(), first: (await read(first)).body.body }).toEqual(before);
  expect(await suspendedHere()).toBe(0);
});

test('a Delete of the actor withdraws its copies for good: a later Update revives none of them, and its new posts are taken', async () => {
  const old = await carolPosts('<p>Last log entry</p>');
  await carolSends(
    new Delete({
      id: new URL(`${carolUrl}#delete`),
      actor: new URL(carolUrl),
      to: PUBLIC_COLLECTION,
      object: new URL(carolUrl),
    }),
  );
  await waitFor(async () => (await read(old)).status === 404, 20_000);

  // Nothing of carol is held any more: a suspension of her is not recorded.
  await carolSends(carolUpdate('after-delete', true));
  await applied(`${carolUrl}#update-after-delete`);
  expect(await suspendedHere()).toBe(0);
  // Her server lifts it (Mastodon's unsuspension): her name is refreshed, nothing comes back.
  await carolSends(carolUpdate('revived'));
  expect(await applied(`${carolUrl}#update-revived`)).toBe('processed');
  const fresh = await carolPosts('<p>Back on watch</p>');
  expect(await suspendedHere()).toBe(0);
  expect((await read(old)).status).toBe(404);
  expect((await read(fresh)).body.body).toContain('Back on watch');
});
