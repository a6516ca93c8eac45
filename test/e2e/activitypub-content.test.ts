/**
 * Content both ways with an independent ActivityPub implementation (issue 24 item 5,
 * docs/federation.md "ActivityPub"): a Fedify peer (test/harness/fedify-peer.ts) whose carol and
 * alice of this server follow each other. Replies, Like / EmojiReact and their Undo, Update and
 * Delete (Tombstone) both ways; mentions and hashtags as `tag`; a followers-only or direct post of
 * the peer's kept for its addressees here only. What reaches the peer has passed Fedify's
 * signature and key-ownership checks.
 *
 * This file: mentions, replies, reactions, Update and Delete; activitypub-content-shares.test.ts
 * has Announce and what is kept for its addressees only or refused (the shared world is
 * test/harness/fedify-content.ts).
 */
import {
  Create,
  Delete,
  EmojiReact,
  Hashtag,
  Like,
  Mention,
  Note,
  PUBLIC_COLLECTION,
  Tombstone,
  Undo,
  Update,
} from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { waitFor, type client } from '../harness/standalone';
import { outbox, type Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import { createOf, publicNote } from '../harness/fedify-world';
import { remoteObjectIdFor } from '../../services/federation/src/activitypub/ids';
import {
  DOMAIN,
  aliceUrl,
  arrived,
  bobUrl,
  bootContentWorld,
  carolPosts,
  carolSends,
  closeContentWorld,
  read,
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
