/**
 * Content warnings, sensitive media and image descriptions between two Agora servers (ADR 0021):
 * bob on B follows alice on A; her post with a warning, the flag and a described image reaches
 * B's copy with all three (the media by A's URL), an edit of the warning follows, and bob's
 * reply with a warning, made on B's copy, is stored on A with it.
 */
import sharp from 'sharp';
import { waitFor, type TestServer } from '../harness/standalone';
import { api, bootPair, read, repos, send } from '../harness/two-servers';
import { registerActor, type Actor } from '../harness/actors';
import { upload } from '../harness/uploads';

const A = 'media-a.test';
const B = 'media-b.test';
const WAIT = 20_000;
type Json = Record<string, unknown>;

let a: TestServer;
let b: TestServer;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  [a, b] = await bootPair(A, B);
  alice = await registerActor(api(a), 'alice');
  bob = await registerActor(api(b), 'bob');
  await send(b, bob, { type: 'Follow', target: alice.id });
  await waitFor(
    async () => (await repos(a).followers.ofUser(alice.id)).some((f) => f.actorId === bob.id),
    WAIT,
  );
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

test("A → B: the warning, the flag and the image's description reach the copy, and an edit follows", async () => {
  const image = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#00ff00' } })
    .png()
    .toBuffer();
  const up = await upload(a.url, alice.token, {
    data: image,
    filename: 'green.png',
    contentType: 'image/png',
    fields: { description: 'A green bar' },
  });
  expect(up.status).toBe(201);
  const fileId = String((up.body.file as Json).id);
  const created = await send(a, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'garden news', contentWarning: 'plants', sensitive: true, attachments: [fileId] },
  });
  const id = created.createdId!;
  await waitFor(async () => (await read(b, bob, id)).status === 200, WAIT);
  const copy = (await read(b, bob, id)).body;
  expect(copy).toMatchObject({
    contentWarning: 'plants',
    sensitive: true,
    media: [{ url: `http://${A}/files/${fileId}`, mediaType: 'image/png', description: 'A green bar' }],
  });
  expect(String(copy.body)).toContain('garden news');

  await send(a, alice, {
    type: 'Update',
    objectType: 'Post',
    target: id,
    object: { contentWarning: 'plants and soil', sensitive: false },
  });
  await waitFor(async () => (await read(b, bob, id)).body.contentWarning === 'plants and soil', WAIT);
  expect((await read(b, bob, id)).body).toMatchObject({
    sensitive: false,
    media: [{ description: 'A green bar' }],
  });

  // A new description (PATCH /files/:id) reaches the copy as an Update of the post it is on.
  const patched = await api(a).call('PATCH', `/files/${encodeURIComponent(fileId)}`, {
    token: alice.token,
    body: { description: 'A bright green bar' },
  });
  expect(patched.status).toBe(200);
  await waitFor(
    async () =>
      ((await read(b, bob, id)).body.media as Json[] | undefined)?.[0]?.description === 'A bright green bar',
    WAIT,
  );
});

test("B → A: bob's reply with a warning, made on B's copy, is stored on A with it", async () => {
  const id = (
    await send(a, alice, { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'ask me' } })
  ).createdId!;
  await waitFor(async () => (await read(b, bob, id)).status === 200, WAIT);
  const reply = (
    await send(b, bob, {
      type: 'Reply',
      to: id,
      object: { content: 'the answer', contentWarning: 'spoiler', sensitive: true },
    })
  ).createdId!;
  await waitFor(async () => !!(await repos(a).replies.liveById(reply)), WAIT);
  expect(await repos(a).replies.liveById(reply)).toMatchObject({
    contentWarning: 'spoiler',
    sensitive: true,
  });
});
