/**
 * Upload limits from the settings (issue 12): the size limit (413 naming the limit), the type
 * allow-list narrowed by an admin (415), the per-user quota (413, freed again by a delete), and
 * an admin deleting someone else's file. Refused uploads leave nothing stored.
 */
import type { Runtime } from '@agora/common/runtime';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import { upload } from '../harness/uploads';

let server: TestServer;
let api: ReturnType<typeof client>;
let rt: Runtime;
let alice: Actor;
let admin: Actor;

const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(bytes - 9, 0x41)]);

async function keys(): Promise<number> {
  let n = 0;
  for await (const o of rt.storage.list('files/')) if (o.key) n++;
  return n;
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  rt = server.services[0]!.runtime!;
  alice = await registerActor(api, 'alice');
  const login = await api.post<{ token: string; user: { id: string } }>('/auth/login', ADMIN);
  admin = { id: login.body.user.id, username: ADMIN.username, token: login.body.token };
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  for (const [name, value] of [
    ['maxUploadSize', 100],
    ['allowedUploadTypes', ['image', 'video', 'audio', 'application/pdf']],
    ['userStorageQuota', 1024],
  ] as const)
    await rt.repos.settings.set(name, value);
});

test('past maxUploadSize: 413 naming the limit, nothing stored', async () => {
  await rt.repos.settings.set('maxUploadSize', 1);
  const res = await upload(server.url, alice.token, { data: pdf(1024 * 1024 + 100) });
  expect(res.status).toBe(413);
  expect(res.body.error).toBe('File too large (limit 1 MB)');
  expect(await keys()).toBe(0);
  expect((await upload(server.url, alice.token, { data: pdf(1024 * 1024) })).status).toBe(201);
});

test('allowedUploadTypes narrows the built-in list: 415', async () => {
  await rt.repos.settings.set('allowedUploadTypes', ['image']);
  const res = await upload(server.url, alice.token, { data: pdf(1000) });
  expect(res.status).toBe(415);
  expect(res.body.error).toBe('file: type application/pdf is not allowed on this server');
});

test('the per-user quota: 413 once used up, room again after a delete; admins may delete any file', async () => {
  const used = (await rt.repos.files.usageOf(alice.id)).bytes;
  await rt.repos.settings.set('userStorageQuota', Math.ceil((used + 700 * 1024) / (1024 * 1024)));
  const first = await upload(server.url, alice.token, { data: pdf(600 * 1024) });
  expect(first.status).toBe(201);
  const before = await keys();
  const refused = await upload(server.url, alice.token, { data: pdf(600 * 1024) });
  expect(refused.status).toBe(413);
  expect(refused.body.error).toBe('Storage quota exceeded');
  expect(await keys()).toBe(before);
  const id = (first.body.file as { id: string }).id;
  expect((await api.call('DELETE', `/files/${id}`, { token: admin.token })).status).toBe(200);
  expect((await upload(server.url, alice.token, { data: pdf(600 * 1024) })).status).toBe(201);
});

test("the reference client's POST /files/ (trailing slash) uploads too", async () => {
  const res = await upload(server.url, alice.token, { data: pdf(2000), path: '/files/' });
  expect(res.status).toBe(201);
});
