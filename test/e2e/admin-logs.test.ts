/**
 * GET /admin/system/logs (spec 4.5): the tail of the standalone log file (DATA_DIR/logs/app.log
 * by default), at most 2000 lines, optionally from a level up; admins only.
 */
import { registerActor } from '../harness/actors';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;

type Tail = { lines: string[]; total: number; logFile?: string; error?: string };

beforeAll(async () => {
  // An unreachable Redis makes every service log a warning at start: lines of two levels.
  server = await bootServer({ LOG_LEVEL: 'info', REDIS_URL: 'redis://127.0.0.1:1' });
  api = client(server.url);
  admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
});
afterAll(async () => {
  await server?.close();
});

test('the admin reads the last lines of the log, from a level up if asked', async () => {
  const all = await api.get<Tail>('/admin/system/logs?tail=2000', { token: admin });
  expect(all.status).toBe(200);
  expect(all.body.logFile).toBe(`${server.dataDir}/logs/app.log`);
  const levels = all.body.lines.map((l) => (JSON.parse(l) as { level: number }).level);
  expect(levels).toContain(30);
  expect(levels).toContain(40);
  const two = await api.get<Tail>('/admin/system/logs?tail=2', { token: admin });
  expect(two.body.lines).toHaveLength(2);
  expect(two.body.total).toBe(2);
  const warnings = await api.get<Tail>('/admin/system/logs?level=warn', { token: admin });
  expect(warnings.body.lines.length).toBeGreaterThan(0);
  for (const line of warnings.body.lines)
    expect((JSON.parse(line) as { level: number }).level).toBeGreaterThanOrEqual(40);
});

test('others are refused, and a bad level is a 400', async () => {
  const user = await registerActor(api, 'log_reader');
  expect((await api.get('/admin/system/logs', { token: user.token })).status).toBe(403);
  expect((await api.get('/admin/system/logs')).status).toBe(401);
  const bad = await api.get<Tail>('/admin/system/logs?level=loud', { token: admin });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatch(/^level must be one of/);
});
