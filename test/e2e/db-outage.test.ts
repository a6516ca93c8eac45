/** Stopping the database makes /health 503 within seconds; starting it again heals it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnFerretDB, type FerretProcess } from '@agora/common/db';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { testEnv } from '../harness/env';

let ferret: FerretProcess;
let server: TestServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agora-outage-'));
  ferret = await spawnFerretDB({ bin: testEnv.ferretdbBin, dataDir: dir });
  server = await bootServer({ MONGO_URL: `${ferret.url}outage` });
});
afterAll(async () => {
  await server?.close();
  await ferret?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('health follows the database down and back up without a restart', async () => {
  const api = client(server.url);
  expect((await api.get('/health')).status).toBe(200);

  await ferret.stop();
  const downAfter = await waitFor(async () => (await api.get('/health')).status === 503, 15_000);
  expect(downAfter).toBeLessThan(15_000);
  const down = await api.get<{ services: Record<string, string> }>('/health');
  expect(down.body.services.mongodb).toBe('disconnected');
  // Requests that need the database fail fast and cleanly meanwhile.
  const login = await api.post('/auth/login', { username: 'x_user', password: 'password123' });
  expect(login.status).toBeGreaterThanOrEqual(500);
  expect(login.body).toHaveProperty('error');

  await ferret.restart();
  await waitFor(async () => (await api.get('/health')).status === 200, 30_000);
  const reg = await api.post('/register', { username: 'after_outage', password: 'password123' });
  expect(reg.status).toBe(201);
});
