/**
 * Content both ways with an independent ActivityPub implementation (issue 24 item 5,
 * docs/federation.md "ActivityPub"): a Fedify peer (test/harness/fedify-peer.ts) whose carol and
 * alice of this server follow each other. Replies, Like / EmojiReact and their Undo, Update and
 * Delete (Tombstone) both ways; mentions and hashtags as `tag`; a followers-only or direct post of
 * the peer's kept for its addressees here only. What reaches the peer has passed Fedify's
 * signature and key-ownership checks.
 */
import {
  Announce,
  Create,
  Delete,
  EmojiReact,
  Follow,
  Hashtag,
  Like,
  Mention,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Tombstone,
  Undo,
  Update,
  type Activity,
} from '@fedify/fedify/vocab';
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
let bob: Actor;
let fedCtx: Context<void>;
let carolUrl: string;

const rt = () => server.services[0]!.runtime!;
const aliceUrl = `http://${DOMAIN}/ap/users/alice`;
const bobUrl = `http://${DOMAIN}/ap/users/bob`;
type Item = {
  id: string;
  body?: string;
  replyCount?: number;
  reactCount?: number;
  reactSummary?: Record<string, number>;
};

const person = async (url: string) => (await fedCtx.lookupObject(url)) as Person;
/** carol sends `activity` to `to` (a local user's actor URL) through Fedify. */
const carolSends = async (to: string, activity: Activity) =>
  fedCtx.sendActivity({ identifier: 'carol' }, await person(to), activity);
const read = (who: Actor, id: string) =>
  api.get<Item>(`/posts/${encodeURIComponent(id)}`, { token: who.token });
/** The first activity at the peer's inbox that passes `match` (awaited). */
async function arrived<T extends Activity>(match: (a: Activity) => Promise<boolean> | boolean): Promise<T> {
  let found: Activity | undefined;
  await waitFor(async () => {
    for (const a of peer.inbox) if (await match(a)) found = a;
    return !!found;
  }, 20_000);
  return found as T;
}
const send = async (activity: Record<string, unknown>, who: Actor = alice) => {
  const res = await outbox(api, who, activity);
  if (res.status !== 201) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
};

let n = 0;
/** A public Note by carol, sent to alice. */
async function carolPosts(content: string, extra: Partial<ConstructorParameters<typeof Note>[0]> = {}) {
  const url = `${carolUrl}/notes/c${++n}`;
  await carolSends(aliceUrl, createOf(publicNote(carolUrl, url, content, extra)));
  return url;
}

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN);
  ({ peer, server, api, fedCtx } = world);
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
  carolUrl = peer.actorUrl('carol');
  // carol follows alice (accepted), alice follows carol (accepted).
  await carolSends(
    aliceUrl,
    new Follow({
      id: new URL(`${carolUrl}#follow-alice`),
      actor: new URL(carolUrl),
      object: new URL(aliceUrl),
    }),
  );
  await waitFor(async () => (await rt().repos.followers.ofUser(alice.id)).length === 1, 20_000);
  await send({ type: 'Follow', object: '@carol@peer.test' });
  await waitFor(
    async () => (await rt().repos.activityPub.follow(alice.id, carolUrl))?.state === 'accepted',
    20_000,
  );
});
afterAll(async () => {
  await world?.close();
});

test('a post names its mentions and hashtags in `tag`, the mentioned actor in `cc`, with absolute links', async () => {
  await send({
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'hello @carol@peer.test, see #Fedi' },
  });
  const create = await arrived<Create>(
    async (a) => a instanceof Create && String((await a.getObject())?.content).includes('see'),
  );
  const note = (await create.getObject()) as Note;
  const tags = [];
  for await (const t of note.getTags()) tags.push(t);
  const mention = tags.find((t) => t instanceof Mention) as Mention;
  expect(mention.href?.href).toBe(carolUrl);
  expect(String(mention.name)).toBe('@carol@peer.test');
  const hashtag = tags.find((t) => t instanceof Hashtag) as Hashtag;
  expect(String(hashtag.name)).toBe('#fedi');
  expect(note.ccIds.map((u) => u.href)).toContain(carolUrl);
  expect(String(note.content)).toContain(`href="${carolUrl}"`);
  expect(String(note.content)).not.toMatch(/href="\//);
});

test('a public post reaches the actor it mentions although nobody there follows its author', async () => {
  // bob has no follower on the peer: only the mention of dave takes the post there.
  await send(
    {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'bob says hi to @dave@peer.test' },
    },
    bob,
  );
  const create = await arrived<Create>(
    async (a) => a instanceof Create && String((await a.getObject())?.content).includes('bob says hi'),
  );
  expect(create.actorId?.href).toBe(bobUrl);
  const note = (await create.getObject()) as Note;
  expect(note.ccIds.map((u) => u.href)).toContain(peer.actorUrl('dave'));
});

test("a peer's Note that mentions alice notifies her, and reads with her full handle", async () => {
  const note = await carolPosts(
    `<p>hello <span class="h-card"><a href="${aliceUrl}" class="u-url mention">@<span>alice</span></a></span>!</p>`,
    { tags: [new Mention({ href: new URL(aliceUrl), name: '@alice@social.test' })] },
  );
  const id = remoteObjectIdFor(note);
  const mentioned = async () =>
    (
      await api.get<{ orderedItems?: { objectId?: string }[] }>('/notifications?types=mention', {
        token: alice.token,
      })
    ).body.orderedItems?.some((x) => x.objectId === id) === true;
  await waitFor(mentioned, 20_000);
  expect((await read(alice, id)).body.body).toContain('>@alice@social.test</a>');
});

test("replies both ways: carol's reply joins alice's thread; alice's reply answers carol's Note by URL", async () => {
  const postId = await send({
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'a thread' },
  });
  const postUrl = `http://${DOMAIN}/ap/objects/${encodeURIComponent(postId)}`;
  const replyUrl = `${carolUrl}/notes/reply-1`;
  await carolSends(
    aliceUrl,
    createOf(
      publicNote(carolUrl, replyUrl, '<p>a reply from the fediverse</p>', { replyTarget: new URL(postUrl) }),
    ),
  );
  const replies = () =>
    api.get<{ orderedItems: Item[] }>(`/posts/${encodeURIComponent(postId)}/replies`, { token: bob.token });
  await waitFor(async () => (await replies()).body.orderedItems?.length === 1, 20_000);
  const [reply] = (await replies()).body.orderedItems;
  expect(reply).toMatchObject({ id: remoteObjectIdFor(replyUrl, 'reply') });
  expect(reply?.body).toContain('a reply from the fediverse');
  expect((await read(alice, postId)).body.replyCount).toBe(1);

  const carolNote = await carolPosts('<p>carol asks</p>');
  const carolPostId = remoteObjectIdFor(carolNote);
  await waitFor(async () => (await read(alice, carolPostId)).status === 200, 20_000);
  const mine = await send({ type: 'Reply', to: carolPostId, object: { content: 'alice answers' } });
  const create = await arrived<Create>(
    async (a) => a instanceof Create && String((await a.getObject())?.content).includes('alice answers'),
  );
  const note = (await create.getObject()) as Note;
  expect(note.replyTargetId?.href).toBe(carolNote);
  expect(note.ccIds.map((u) => u.href)).toContain(carolUrl);
  expect(note.id?.href).toBe(`http://${DOMAIN}/ap/objects/${encodeURIComponent(mine)}`);
  // The reply's URL answers as a Note answering carol's.
  const fetched = (await fedCtx.lookupObject(note.id!.href)) as Note;
  expect(fetched).toBeInstanceOf(Note);
  expect(fetched.replyTargetId?.href).toBe(carolNote);
});

test('reactions both ways: Like is 👍, EmojiReact any other emoji, Undo removes', async () => {
  const postId = await send({
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'react' },
  });
  const postUrl = `http://${DOMAIN}/ap/objects/${encodeURIComponent(postId)}`;
  const like = new Like({
    id: new URL(`${carolUrl}#likes/1`),
    actor: new URL(carolUrl),
    object: new URL(postUrl),
  });
  await carolSends(aliceUrl, like);
  await waitFor(async () => (await read(alice, postId)).body.reactSummary?.['👍'] === 1, 20_000);
  await carolSends(
    aliceUrl,
    new Undo({ id: new URL(`${carolUrl}#likes/1/undo`), actor: new URL(carolUrl), object: like }),
  );
  await waitFor(async () => (await read(alice, postId)).body.reactCount === 0, 20_000);
  await carolSends(
    aliceUrl,
    new EmojiReact({
      id: new URL(`${carolUrl}#reacts/2`),
      actor: new URL(carolUrl),
      object: new URL(postUrl),
      content: '🎉',
    }),
  );
  await waitFor(async () => (await read(alice, postId)).body.reactSummary?.['🎉'] === 1, 20_000);

  const carolNote = await carolPosts('<p>react to me</p>');
  const carolPostId = remoteObjectIdFor(carolNote);
  await waitFor(async () => (await read(alice, carolPostId)).status === 200, 20_000);
  await send({ type: 'React', to: carolPostId, object: { emoji: '👍' } });
  const liked = await arrived<Like>((a) => a instanceof Like && a.objectId?.href === carolNote);
  expect(liked.actorId?.href).toBe(aliceUrl);
  await send({ type: 'React', to: carolPostId, object: { emoji: '🚀' } });
  const reacted = await arrived<EmojiReact>((a) => a instanceof EmojiReact && a.objectId?.href === carolNote);
  expect(String(reacted.content)).toBe('🚀');
  await send({ type: 'Undo', object: { type: 'React', to: carolPostId } });
  const undone = await arrived<Undo>(async (a) => a instanceof Undo && (await a.getObject()) instanceof Like);
  const inner = (await undone.getObject()) as Like;
  expect(inner.objectId?.href).toBe(carolNote);
  expect(inner.actorId?.href).toBe(aliceUrl);
});

test('Update and Delete both ways; a deleted post goes as a Tombstone', async () => {
  const postId = await send({
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'first' },
  });
  const postUrl = `http://${DOMAIN}/ap/objects/${encodeURIComponent(postId)}`;
  expect(
    (await outbox(api, alice, { type: 'Update', target: postId, object: { content: 'second' } })).status,
  ).toBe(201);
  const update = await arrived<Update>((a) => a instanceof Update && a.objectId?.href === postUrl);
  expect(String(((await update.getObject()) as Note).content)).toContain('second');
  expect((await outbox(api, alice, { type: 'Delete', target: postId })).status).toBe(201);
  const del = await arrived<Delete>((a) => a instanceof Delete && a.objectId?.href === postUrl);
  expect(await del.getObject()).toBeInstanceOf(Tombstone);

  const carolNote = await carolPosts('<p>to be edited</p>');
  const id = remoteObjectIdFor(carolNote);
  await waitFor(async () => (await read(alice, id)).status === 200, 20_000);
  await carolSends(
    aliceUrl,
    new Update({
      id: new URL(`${carolNote}#update`),
      actor: new URL(carolUrl),
      to: PUBLIC_COLLECTION,
      object: publicNote(carolUrl, carolNote, '<p>edited</p>'),
    }),
  );
  await waitFor(async () => (await read(alice, id)).body.body?.includes('edited') === true, 20_000);
  await carolSends(
    aliceUrl,
    new Delete({
      id: new URL(`${carolNote}#delete`),
      actor: new URL(carolUrl),
      to: PUBLIC_COLLECTION,
      object: new Tombstone({ id: new URL(carolNote) }),
    }),
  );
  await waitFor(async () => (await read(alice, id)).status === 404, 20_000);
});

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
