/**
 * The compiled build (scripts/build.ts) is what production runs: dist/standalone.js, started the
 * way `npm start` starts it, serves the same routes as the TypeScript sources (the route folders
 * are found at build time instead of at run time) and answers real requests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '@agora/common/db';
import { buildAll, isStale } from '../../scripts/build';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { mongoUrlFor, uniqueName } from '../harness/env';

const ROOT = join(__dirname, '..', '..');
let compiled: ChildProcess | undefined;
let sources: TestServer | undefined;
let dataDir: string;
let output = '';
let compiledUrl = '';

beforeAll(async () => {
  if (isStale()) await buildAll();
  dataDir = mkdtempSync(join(tmpdir(), 'agora-compiled-'));
  const port = await freePort();
  compiled = spawn(process.execPath, [join(ROOT, 'dist', 'standalone.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DOMAIN: 'social.test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      MONGO_URL: mongoUrlFor(uniqueName('compiled')),
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: 'compiled_admin',
      ADMIN_PASSWORD: 'compiled-admin-password',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  compiled.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  compiled.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  await waitForPort(port, 60_000);
  await new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = () => {
      if (output.includes('Agora is running')) return resolve();
      if (Date.now() > deadline) return reject(new Error(`compiled standalone did not start:\n${output}`));
      setTimeout(poll, 100);
    };
    poll();
  });
  sources = await bootServer();
  compiledUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  if (compiled && compiled.exitCode === null) {
    await new Promise<void>((resolve) => {
      compiled!.once('exit', () => resolve());
      compiled!.kill('SIGTERM');
    });
  }
  await sources?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const compiledApi = () => client(compiledUrl);

test('dist/standalone.js lists the same routes as the sources', async () => {
  const fromDist = await compiledApi().get<{ total: number; routes: unknown[] }>('/__routes');
  const fromSources = await client(sources!.url).get<{ total: number; routes: unknown[] }>('/__routes');
  expect(fromDist.status).toBe(200);
  expect(fromDist.body.total).toBeGreaterThan(50);
  expect(fromDist.body.routes).toEqual(fromSources.body.routes);
});

test('dist/standalone.js serves real requests end to end', async () => {
  const api = compiledApi();
  expect((await api.get('/health')).status).toBe(200);
  const login = await api.post<{ token: string }>('/auth/login', {
    username: 'compiled_admin',
    password: 'compiled-admin-password',
  });
  expect(login.status).toBe(200);
  const reg = await api.post('/register', { username: 'compiled_user', password: 'password123' });
  expect(reg.status).toBe(201);
  // Bad input still gets the one error model, not a stack trace.
  const bad = await api.post('/auth/login', { username: 42 });
  expect(bad.status).toBe(400);
  expect(bad.body).toHaveProperty('error');
  expect(JSON.stringify(bad.body)).not.toContain('.ts:');
});
