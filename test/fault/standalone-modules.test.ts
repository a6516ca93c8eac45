/**
 * The footprint of `npm start` (issue 22: idle RSS ≤ 150 MB): the compiled standalone on SQLite,
 * with no MONGO_URL, REDIS_URL, AMQP_URL, S3 or SMTP configured, serves without loading the
 * drivers of what it does not use (each costs tens of MB of resident memory; docs/performance.md).
 * What it loads on demand still works: an image upload loads sharp then, and is processed.
 * The module list comes from test/harness/loaded-modules.ts, written on SIGUSR2.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { upload } from '../harness/uploads';
import { loadedFrom as loaded, loadedModules } from '../harness/module-list';
import { call, registerOn, startCompiled, type CompiledServer } from '../harness/compiled';

const ROOT = join(__dirname, '..', '..');
const NOT_AT_START = [
  'mongoose',
  'mongodb',
  '@redis/client',
  'amqplib',
  '@aws-sdk/client-s3',
  'nodemailer',
  'sharp',
];

let server: CompiledServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agora-modules-'));
  server = await startCompiled({
    nodeArgs: ['--import', 'tsx', '--import', join(ROOT, 'test/harness/loaded-modules.ts')],
    env: { LOADED_MODULES_FILE: join(dir, 'modules.txt') },
  });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const modules = () => loadedModules(server.child, join(dir, 'modules.txt'), () => server.output());

test('standalone on SQLite serves without the drivers it does not use, and loads sharp with the first image', async () => {
  const token = await registerOn(server, 'modules_user');
  const post = await call(server, 'POST', '/outbox', {
    token,
    body: { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'hello' } },
  });
  expect(post.status).toBe(201);
  expect((await call(server, 'GET', '/posts?limit=5', { token })).status).toBe(200);

  const atStart = await modules();
  // The list is real: it names what the process does use.
  expect(loaded(atStart, 'express')).toBe(true);
  expect(NOT_AT_START.filter((pkg) => loaded(atStart, pkg))).toEqual([]);

  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  const res = await upload(server.url, token, { data: png, filename: 'a.png', contentType: 'image/png' });
  expect(res.status).toBe(201);
  // Processed by sharp: decoded (its size read) and its dominant colour taken.
  expect(res.body.file).toMatchObject({ type: 'Image', mediaType: 'image/png', width: 40, height: 30 });
  expect((res.body.file as { color: string }).color).toMatch(/^#[0-9a-f]{6}$/);
  expect(loaded(await modules(), 'sharp')).toBe(true);
});
