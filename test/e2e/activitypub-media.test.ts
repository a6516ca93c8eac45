/**
 * Content warnings, sensitive media and image descriptions on the ActivityPub wire (ADR 0021),
 * against the Fedify peer (test/harness/fedify-peer.ts): a Note's `summary` is the warning,
 * `sensitive` the flag and each `attachment`'s `name` the description, read by Fedify's own
 * vocabulary outbound, and stored here from a Fedify-built Note inbound.
 */
import { Create, Follow, Image, Note, Person } from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import sharp from 'sharp';
import { client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { upload } from '../harness/uploads';
import type { FedifyPeer } from '../harness/fedify-peer';
import { createOf, publicNote, startFedifyWorld, type FedifyWorld } from '../harness/fedify-world';
import { remoteObjectIdFor } from '../../services/federation/src/activitypub/ids';

const DOMAIN = 'social.test';
const WAIT = 20_000;
let world: FedifyWorld;
let peer: FedifyPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let fedCtx: Context<void>;
const aliceUrl = `http://${DOMAIN}/ap/users/alice`;
const rt = () => server.services[0]!.runtime!;

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN);
  ({ peer, server, api, fedCtx } = world);
  alice = await registerActor(api, 'alice');
});
afterAll(async () => {
  await world?.close();
});

test('outbound: the peer reads the warning as summary, the flag as sensitive, the description as attachment name', async () => {
  const target = (await fedCtx.lookupObject('@alice@social.test')) as Person;
  await fedCtx.sendActivity(
    { identifier: 'carol' },
    target,
    new Follow({
      id: new URL(`${peer.actorUrl('carol')}#follow-alice`),
      actor: fedCtx.getActorUri('carol'),
      object: target.id,
    }),
  );
  await waitFor(async () => (await rt().repos.followers.ofUser(alice.id)).length === 1, WAIT);

  const image = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#0000ff' } })
    .png()
    .toBuffer();
  const up = await upload(server.url, alice.token, {
    data: image,
    filename: 'blue.png',
    contentType: 'image/png',
    fields: { description: 'A blue tile' },
  });
  const fileId = String((up.body.file as { id: string }).id);
  const res = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'tiles', contentWarning: 'bright colours', sensitive: true, attachments: [fileId] },
  });
  expect(res.status).toBe(201);
  const isOurs = async (a: unknown) =>
    a instanceof Create && String((await a.getObject())?.content ?? '').includes('tiles');
  await waitFor(async () => (await Promise.all(peer.inbox.map(isOurs))).some(Boolean), WAIT);
  const create = peer.inbox[(await Promise.all(peer.inbox.map(isOurs))).indexOf(true)] as Create;
  const note = (await create.getObject()) as Note;
  expect(note).toBeInstanceOf(Note);
  expect(note.attributionId?.href).toBe(aliceUrl);
  expect(String(note.summary)).toBe('bright colours');
  expect(note.sensitive).toBe(true);
  const attachments = [];
  for await (const a of note.getAttachments()) attachments.push(a);
  expect(attachments).toHaveLength(1);
  const [att] = attachments as Image[];
  expect(att).toBeInstanceOf(Image);
  expect(String(att!.name)).toBe('A blue tile');
  expect(att!.mediaType).toBe('image/png');
  expect((att!.url as URL | undefined)?.href).toBe(`http://${DOMAIN}/files/${fileId}`);
  // The Note's own URL answers GET with the same fields.
  const doc = (await fedCtx.lookupObject(note.id!.href)) as Note;
  expect(String(doc.summary)).toBe('bright colours');
  expect(doc.sensitive).toBe(true);
});

test("inbound: a Fedify Note's summary, sensitive and attachment name are stored as the warning, flag and description", async () => {
  expect((await outbox(api, alice, { type: 'Follow', object: '@carol@peer.test' })).status).toBe(201);
  const carolUrl = peer.actorUrl('carol');
  await waitFor(
    async () => (await rt().repos.activityPub.follow(alice.id, carolUrl))?.state === 'accepted',
    WAIT,
  );
  const aliceActor = (await fedCtx.lookupObject(aliceUrl)) as Person;
  const noteUrl = `${carolUrl}/notes/cw-1`;
  await fedCtx.sendActivity(
    { identifier: 'carol' },
    aliceActor,
    createOf(
      publicNote(carolUrl, noteUrl, '<p>my cat</p>', {
        summary: 'cat photo',
        sensitive: true,
        attachments: [
          new Image({
            url: new URL('http://peer.test/media/cat.jpg'),
            mediaType: 'image/jpeg',
            name: 'A sleeping cat',
          }),
        ],
      }),
    ),
  );
  const id = remoteObjectIdFor(noteUrl);
  await waitFor(async () => !!(await rt().repos.posts.byId(id)), WAIT);
  const read = await api.get<Record<string, unknown>>(`/posts/${encodeURIComponent(id)}`, {
    token: alice.token,
  });
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({
    contentWarning: 'cat photo',
    sensitive: true,
    media: [
      { url: 'http://peer.test/media/cat.jpg', mediaType: 'image/jpeg', description: 'A sleeping cat' },
    ],
  });
  expect(String(read.body.body)).toContain('my cat');
});
