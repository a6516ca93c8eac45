/**
 * Image descriptions, content warnings and sensitive media (issue 26 item 4, ADR 0021): a
 * file's description set at upload or by PATCH /files/:id and shown on the post it is attached
 * to (never as the post's text); a post's, reply's and page's `contentWarning` and `sensitive`
 * stored, returned, kept and changed by Update; bad input refused with 400 and nothing changed.
 */
import sharp from 'sharp';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { upload } from '../harness/uploads';

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let bob: Actor;
let admin: Actor;
type Json = Record<string, unknown>;
const enc = encodeURIComponent;
const patchFile = (id: string, body: unknown, who?: Actor) =>
  api.call<{ file?: Json; error?: string }>('PATCH', `/files/${enc(id)}`, {
    body,
    ...(who ? { token: who.token } : {}),
  });

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 20, b: 20 } } })
    .png()
    .toBuffer();

async function uploadImage(who: Actor, fields: Record<string, string> = {}) {
  const res = await upload(server.url, who.token, {
    data: await png(),
    filename: 'red.png',
    contentType: 'image/png',
    fields,
  });
  return res;
}

async function readPost(id: string, who: Actor = alice): Promise<Json> {
  const res = await api.get<Json>(`/posts/${enc(id)}`, { token: who.token });
  expect(res.status).toBe(200);
  return res.body;
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
  const login = await api.post<{ token: string; user: { id: string } }>('/auth/login', ADMIN);
  admin = { id: login.body.user.id, username: ADMIN.username, token: login.body.token };
});
afterAll(async () => {
  await server?.close();
});

test("a file's description is set at upload, changed by its owner, and refused when malformed", async () => {
  const up = await uploadImage(alice, { description: '  A red square  ' });
  expect(up.status).toBe(201);
  const file = up.body.file as Json;
  expect(file.description).toBe('A red square');
  const id = String(file.id);
  expect((await uploadImage(alice, { description: 'x'.repeat(1501) })).status).toBe(400);

  const patch = (who: Actor, body: unknown) => patchFile(id, body, who);
  const changed = await patch(alice, { description: 'A small red square' });
  expect(changed.status).toBe(200);
  expect(changed.body.file?.description).toBe('A small red square');
  for (const bad of [{ description: 5 }, { description: 'x'.repeat(1501) }, { name: 'n' }, {}, ['x']]) {
    const res = await patch(alice, bad);
    expect([JSON.stringify(bad).slice(0, 40), res.status]).toEqual([JSON.stringify(bad).slice(0, 40), 400]);
    expect(typeof res.body.error).toBe('string');
  }
  // Another user cannot see alice's unattached file: it does not exist for them.
  expect((await patch(bob, { description: 'mine now' })).status).toBe(404);
  expect((await patchFile(id, { description: 'anon' })).status).toBe(401);
  const meta = await api.get<{ file: Json }>(`/files/${enc(id)}/meta`, { token: alice.token });
  expect(meta.body.file.description).toBe('A small red square');
});

test('a post with a content warning, sensitive media and a described image: stored, returned, text kept apart', async () => {
  const up = await uploadImage(alice, { description: 'A red square on white' });
  const fileId = String((up.body.file as Json).id);
  const res = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: {
      content: 'Look at this',
      contentWarning: 'Spoilers for the finale',
      sensitive: true,
      attachments: [fileId],
    },
  });
  expect(res.status).toBe(201);
  const id = res.body.createdId!;
  const post = await readPost(id, bob);
  expect(post).toMatchObject({
    contentWarning: 'Spoilers for the finale',
    sensitive: true,
    media: [{ id: fileId, mediaType: 'image/png', description: 'A red square on white', width: 40 }],
  });
  expect(String(post.body)).toContain('Look at this');
  expect(String(post.body)).not.toContain('red square');
  // Anonymous readers see the same fields on a public post, in lists too.
  const listed = await api.get<{ orderedItems: Json[] }>(`/users/${enc(alice.id)}/posts`);
  expect(listed.body.orderedItems.find((p) => p.id === id)).toMatchObject({
    contentWarning: 'Spoilers for the finale',
    sensitive: true,
  });

  // The description changed later is what the post shows.
  const patched = await patchFile(fileId, { description: 'A crimson square' }, alice);
  expect(patched.status).toBe(200);
  expect(((await readPost(id)).media as Json[])[0]).toMatchObject({ description: 'A crimson square' });
  // Bob may read the attached file but not describe it.
  expect((await patchFile(fileId, { description: 'x' }, bob)).status).toBe(403);

  // A post without them says so.
  const plain = await outbox(api, alice, { type: 'Create', objectType: 'Post', object: { content: 'hi' } });
  expect(await readPost(plain.body.createdId!)).toMatchObject({
    contentWarning: '',
    sensitive: false,
    media: [],
  });
});

test('Update keeps the warning and flag unless given, changes and clears them; bad values change nothing', async () => {
  const res = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    object: { content: 'before', contentWarning: 'cw one', sensitive: true },
  });
  const id = res.body.createdId!;
  const update = (object: Json) =>
    outbox(api, alice, { type: 'Update', objectType: 'Post', target: id, object });
  expect((await update({ content: 'after' })).status).toBe(201);
  expect(await readPost(id)).toMatchObject({ contentWarning: 'cw one', sensitive: true });
  expect((await update({ contentWarning: 'cw two', sensitive: false })).status).toBe(201);
  expect(await readPost(id)).toMatchObject({ contentWarning: 'cw two', sensitive: false });
  for (const bad of [{ contentWarning: 7 }, { contentWarning: 'x'.repeat(501) }, { sensitive: 'yes' }]) {
    const r = await update(bad);
    expect([bad, r.status]).toEqual([bad, 400]);
    expect(r.body.error).toMatch(/contentWarning|sensitive/);
  }
  expect(await readPost(id)).toMatchObject({ contentWarning: 'cw two', sensitive: false });
  expect((await update({ contentWarning: '' })).status).toBe(201);
  expect((await readPost(id)).contentWarning).toBe('');

  // A new post with bad values is refused and not stored.
  const before = (await api.get<{ totalItems: number }>(`/users/${enc(alice.id)}/posts`)).body.totalItems;
  for (const object of [
    { content: 'x', contentWarning: ['a'] },
    { content: 'x', sensitive: 1 },
    { content: 'x', contentWarning: 'w'.repeat(501) },
  ])
    expect((await outbox(api, alice, { type: 'Create', objectType: 'Post', object })).status).toBe(400);
  expect((await api.get<{ totalItems: number }>(`/users/${enc(alice.id)}/posts`)).body.totalItems).toBe(
    before,
  );
});

test('replies and pages carry a content warning and the sensitive flag, through Update too', async () => {
  const root = await outbox(api, alice, { type: 'Create', objectType: 'Post', object: { content: 'root' } });
  const rootId = root.body.createdId!;
  const reply = await outbox(api, bob, {
    type: 'Reply',
    to: rootId,
    object: { content: 'the ending!', contentWarning: 'ending', sensitive: true },
  });
  expect(reply.status).toBe(201);
  const replies = async () =>
    (await api.get<{ orderedItems: Json[] }>(`/posts/${enc(rootId)}/replies`, { token: alice.token })).body
      .orderedItems;
  expect((await replies())[0]).toMatchObject({ contentWarning: 'ending', sensitive: true });
  expect(
    (await outbox(api, bob, { type: 'Reply', to: rootId, object: { content: 'x', sensitive: 'no' } })).status,
  ).toBe(400);
  expect(
    (
      await outbox(api, bob, {
        type: 'Update',
        objectType: 'Reply',
        target: reply.body.createdId,
        object: { contentWarning: 'the ending' },
      })
    ).status,
  ).toBe(201);
  const [edited] = await replies();
  expect(edited).toMatchObject({ contentWarning: 'the ending', sensitive: true });
  expect(String(edited?.body)).toContain('the ending!');

  const page = await outbox(api, admin, {
    type: 'Create',
    objectType: 'Page',
    to: '@public',
    object: { title: 'Incidents', content: 'What happened', contentWarning: 'violence' },
  });
  expect(page.status).toBe(201);
  const readPage = async () =>
    (await api.get<{ item: Json }>(`/pages/${enc(page.body.createdId!)}`)).body.item;
  expect(await readPage()).toMatchObject({ contentWarning: 'violence', sensitive: false });
  await outbox(api, admin, {
    type: 'Update',
    objectType: 'Page',
    target: page.body.createdId,
    object: { sensitive: true },
  });
  expect(await readPage()).toMatchObject({ contentWarning: 'violence', sensitive: true });
  expect(
    (
      await outbox(api, admin, {
        type: 'Update',
        objectType: 'Page',
        target: page.body.createdId,
        object: { contentWarning: { text: 'x' } },
      })
    ).status,
  ).toBe(400);
});
