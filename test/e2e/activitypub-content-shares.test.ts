/**
 * Content with an independent ActivityPub implementation, continued from activitypub-content.test.ts
 * (issue 24 item 5, docs/federation.md "ActivityPub"): a peer's Announce is a share here, a
 * followers-only or direct post of the peer's is kept for its addressees here only, and a hostile
 * peer's actor acts only on its own content. The world (a Fedify peer whose carol and alice follow
 * each other) is test/harness/fedify-content.ts.
 */
import {
  Announce,
  Create,
  Delete,
  Note,
  PUBLIC_COLLECTION,
  Tombstone,
  Undo,
  Update,
} from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { ACTIVITIES, type ActivityRecord } from '@agora/common/db';
import { allStored } from '../harness/stored';
import { waitFor, type client } from '../harness/standalone';
import type { Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import { createOf, publicNote } from '../harness/fedify-world';
import { remoteObjectIdFor } from '../../services/federation/src/activitypub/ids';
import {
  DOMAIN,
  aliceUrl,
  bobUrl,
  bootContentWorld,
  carolSends,
  closeContentWorld,
  person,
  read,
  rt,
  send,
  type Item,
} from '../harness/fedify-content';

let peer: FedifyPeer;
let api: ReturnType<typeof client>;
let alice: Actor;
let bob: Actor;
let carolUrl: string;
let fedCtx: Context<void>;

beforeAll(async () => {
  ({ peer, api, alice, bob, carolUrl, fedCtx } = await bootContentWorld());
});
afterAll(closeContentWorld);

test("an Announce is a share by the announcer in its followers' timelines here, with the original quoted; Undo removes it", async () => {
  const me = await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token });
  const timeline = async () =>
    (
      await api.get<{ orderedItems: Item[] }>(
        `/circles/${encodeURIComponent(me.body.user.following)}/posts`,
        {
          token: alice.token,
        },
      )
    ).body.orderedItems;
  // A post of dave's this server does not hold: fetched from its URL.
  const daveNote = `${peer.actorUrl('dave')}/notes/original`;
  peer.notes.set(
    daveNote,
    publicNote(peer.actorUrl('dave'), daveNote, '<p>worth sharing with @alice@social.test</p>'),
  );
  const announce = new Announce({
    id: new URL(`${carolUrl}/announces/1`),
    actor: new URL(carolUrl),
    object: new URL(daveNote),
    to: PUBLIC_COLLECTION,
  });
  await carolSends(aliceUrl, announce);
  const shareId = remoteObjectIdFor(`${carolUrl}/announces/1`);
  await waitFor(async () => (await timeline()).some((p) => p.id === shareId), 20_000);
  const share = (await read(alice, shareId)).body as Item & { actorId: string; url: string };
  expect(share).toMatchObject({ actorId: '@carol@peer.test', url: daveNote, shareOf: daveNote });
  // The handles it quotes are dave's words: the share names (mentions) no one itself.
  expect((await rt().repos.posts.byId(shareId))?.source?.content).toBe('');
  expect(share.body).toContain('worth sharing');
  expect(share.body).toContain('@dave@peer.test');
  // Not a copy of dave's post: only the share is held.
  expect(await rt().repos.posts.byId(remoteObjectIdFor(daveNote))).toBeNull();

  await carolSends(
    aliceUrl,
    new Undo({ id: new URL(`${carolUrl}/announces/1#undo`), actor: new URL(carolUrl), object: announce }),
  );
  await waitFor(async () => (await read(alice, shareId)).status === 404, 20_000);

  // Announced again, then undone by the Announce's id alone (as some servers send it).
  const again = new Announce({
    id: new URL(`${carolUrl}/announces/3`),
    actor: new URL(carolUrl),
    object: new URL(daveNote),
    to: PUBLIC_COLLECTION,
  });
  await carolSends(aliceUrl, again);
  const againId = remoteObjectIdFor(`${carolUrl}/announces/3`);
  await waitFor(async () => (await read(alice, againId)).status === 200, 20_000);
  await carolSends(
    aliceUrl,
    new Undo({
      id: new URL(`${carolUrl}/announces/3#undo`),
      actor: new URL(carolUrl),
      object: new URL(`${carolUrl}/announces/3`),
    }),
  );
  await waitFor(async () => (await read(alice, againId)).status === 404, 20_000);

  // An Announce of a post that is not public shares nothing.
  const hidden = `${peer.actorUrl('dave')}/notes/hidden`;
  peer.notes.set(
    hidden,
    new Note({ id: new URL(hidden), attribution: new URL(peer.actorUrl('dave')), content: '<p>no</p>' }),
  );
  await carolSends(
    aliceUrl,
    new Announce({
      id: new URL(`${carolUrl}/announces/2`),
      actor: new URL(carolUrl),
      object: new URL(hidden),
      to: PUBLIC_COLLECTION,
    }),
  );
  let outcome: ActivityRecord | undefined;
  await waitFor(async () => {
    const docs = await allStored<ActivityRecord & { _id: string }>(rt().db.engine, ACTIVITIES);
    outcome = docs.find((d) => d.remoteId === `${carolUrl}/announces/2` && d.inbound?.status !== 'accepted');
    return !!outcome;
  }, 20_000);
  expect(outcome?.inbound?.status).toBe('ignored');
  expect(await rt().repos.posts.byId(remoteObjectIdFor(`${carolUrl}/announces/2`))).toBeNull();
});

describe("the peer's posts that are not public are kept for their addressees only", () => {
  const privateNote = async (url: string, to: URL[], recipient: string) =>
    carolSends(
      recipient,
      new Create({
        id: new URL(`${url}#create`),
        actor: new URL(carolUrl),
        tos: to,
        object: new Note({
          id: new URL(url),
          attribution: new URL(carolUrl),
          content: '<p>hush</p>',
          tos: to,
        }),
      }),
    );

  test('followers-only: alice (a follower) reads it, bob does not', async () => {
    const url = `${carolUrl}/notes/followers-only`;
    await privateNote(url, [new URL(`${carolUrl}/followers`)], aliceUrl);
    const id = remoteObjectIdFor(url);
    await waitFor(async () => (await read(alice, id)).status === 200, 20_000);
    expect((await read(alice, id)).body.body).toContain('hush');
    expect((await read(bob, id)).status).toBe(404);
    expect((await api.get(`/posts/${encodeURIComponent(id)}`)).status).toBe(404);
  });

  test('direct: bob (named) reads it, alice (a follower, not named) does not', async () => {
    const url = `${carolUrl}/notes/direct`;
    await privateNote(url, [new URL(bobUrl)], bobUrl);
    const id = remoteObjectIdFor(url);
    await waitFor(async () => (await read(bob, id)).status === 200, 20_000);
    expect((await read(alice, id)).status).toBe(404);
  });

  test('a post naming no one here is not kept', async () => {
    const url = `${carolUrl}/notes/elsewhere`;
    await privateNote(url, [new URL(`${peer.origin}/users/dave`)], aliceUrl);
    const id = remoteObjectIdFor(url);
    let outcome: ActivityRecord | undefined;
    await waitFor(async () => {
      const docs = await allStored<ActivityRecord & { _id: string }>(rt().db.engine, ACTIVITIES);
      outcome = docs.find((d) => d.remoteId === `${url}#create` && d.inbound?.status !== 'accepted');
      return !!outcome;
    }, 20_000);
    expect(outcome?.inbound).toMatchObject({
      status: 'ignored',
      reason: 'names no recipient on this server',
    });
    expect(await rt().repos.posts.byId(id)).toBeNull();
  });
});

describe('a hostile peer: an actor acts only on its own content', () => {
  const outcomeOf = async (remoteId: string) => {
    let found: ActivityRecord | undefined;
    await waitFor(async () => {
      const docs = await allStored<ActivityRecord & { _id: string }>(rt().db.engine, ACTIVITIES);
      found = docs.find((d) => d.remoteId === remoteId && d.inbound?.status !== 'accepted');
      return !!found;
    }, 20_000);
    return found?.inbound;
  };

  test("carol's Delete of alice's post changes nothing", async () => {
    const postId = await send({
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'mine' },
    });
    const postUrl = `http://${DOMAIN}/ap/objects/${encodeURIComponent(postId)}`;
    const id = `${carolUrl}#delete-alice-post`;
    await carolSends(
      aliceUrl,
      new Delete({
        id: new URL(id),
        actor: new URL(carolUrl),
        object: new Tombstone({ id: new URL(postUrl) }),
      }),
    );
    expect(await outcomeOf(id)).toMatchObject({
      status: 'ignored',
      reason: 'no post of this author from this server has that id',
    });
    expect((await read(alice, postId)).status).toBe(200);
  });

  test("a Note attributed to dave in carol's Create is refused, nothing stored", async () => {
    const url = `${carolUrl}/notes/as-dave`;
    await carolSends(
      aliceUrl,
      // Sent by carol, the Note attributed to dave.
      createOf(publicNote(peer.actorUrl('dave'), url, 'forged'), { actor: new URL(carolUrl) }),
    );
    expect(await outcomeOf(`${url}#create`)).toMatchObject({
      status: 'rejected',
      reason: 'object.attributedTo: must be the activity actor',
    });
    expect(await rt().repos.posts.byId(remoteObjectIdFor(url))).toBeNull();
  });

  test("carol's Update of a Note of dave's held here is ignored", async () => {
    const url = `${peer.actorUrl('dave')}/notes/d1`;
    await fedCtx.sendActivity(
      { identifier: 'dave' },
      await person(aliceUrl),
      createOf(publicNote(peer.actorUrl('dave'), url, '<p>dave wrote</p>')),
    );
    const id = remoteObjectIdFor(url);
    await waitFor(async () => !!(await rt().repos.posts.byId(id)), 20_000);
    await carolSends(
      aliceUrl,
      new Update({
        id: new URL(`${carolUrl}#update-dave`),
        actor: new URL(carolUrl),
        to: PUBLIC_COLLECTION,
        object: publicNote(carolUrl, url, 'changed'),
      }),
    );
    expect(await outcomeOf(`${carolUrl}#update-dave`)).toMatchObject({
      status: 'ignored',
      reason: 'no post of this author from this server has that id',
    });
    expect((await rt().repos.posts.byId(id))?.body).toContain('dave wrote');
  });
});
