/**
 * The in-process hand-off's upstream timeout (ADR 0034) in the compiled standalone, as `npm start`
 * runs it, with UPSTREAM_TIMEOUT_SECONDS at 1.5: a download whose store never answers (a stuck
 * disk, injected by inject-hang.ts) gets the proxy's 504 `{ error }` after the timeout, logged and
 * counted; when the store answers again the service's late answer goes nowhere (nothing more on
 * the client's connection, which serves its next request) and the process serves on; a slow upload
 * that keeps sending, and a live stream, both longer than the timeout, are never cut.
 */
import http from 'node:http';
import { join } from 'node:path';
import { freePort } from '@agora/common/db';
import { answersIn, multipartOpening, onOneConnection, sleep } from '../harness/raw-http';
import { openStream } from '../harness/sse';
import {
  expectStillServing,
  registerOn,
  startCompiled,
  uploadTo,
  type CompiledServer,
} from '../harness/compiled';

const INJECT = join(__dirname, 'inject-hang.ts');
const TIMEOUT_MS = 1500;
const TIMED_OUT = JSON.stringify({ error: 'Upstream service timed out' });

let server: CompiledServer;
let metricsPort: number;
let token: string;
let filePath: string;

async function toggleStore(said: string): Promise<void> {
  const before = server.output().split(said).length;
  server.child.kill('SIGUSR2');
  for (let i = 0; server.output().split(said).length === before; i++) {
    if (i > 200) throw new Error(`the injected fault did not say "${said}":\n${server.output()}`);
    await sleep(25);
  }
}

async function timeouts504(): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('agora_http_requests_total{') &&
        l.includes('service="gateway"') &&
        l.includes('route="proxy:social"') &&
        l.includes('code="504"'),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}

beforeAll(async () => {
  metricsPort = await freePort();
  server = await startCompiled({
    env: {
      UPSTREAM_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000),
      LIVE_HEARTBEAT_SECONDS: '1',
      METRICS_PORT: String(metricsPort),
    },
    nodeArgs: ['--import', 'tsx', '--import', INJECT],
  });
  token = await registerOn(server, 'fault_waiter');
  const up = await uploadTo(server, token, '/files', 'file', Buffer.from('%PDF-1.4\nstuck'), 'stuck.pdf');
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${JSON.stringify(up.body)}`);
  filePath = new URL((up.body.file as { url: string }).url).pathname;
});

afterAll(async () => {
  const exit = await server?.stop();
  expect(exit).toEqual({ code: 0, signal: null });
});

test('a download whose store never answers: 504 { error }, and its late answer goes nowhere', async () => {
  const counted = await timeouts504();
  await toggleStore('storage stuck');
  let unstuck = false;
  const got = await onOneConnection(
    server.port,
    [filePath, '/auth/me'],
    async () => {
      await toggleStore('storage answers again');
      unstuck = true;
      // The service opens the file now and answers on the response the edge has answered.
      await sleep(500);
    },
    { authorization: `Bearer ${token}` },
  ).finally(async () => {
    if (!unstuck) await toggleStore('storage answers again');
  });
  const { answers, rest } = answersIn(got);
  expect(answers.map((a) => a.status)).toEqual(['504', '200']);
  expect(answers[0]!.body).toBe(TIMED_OUT);
  expect(JSON.parse(answers[1]!.body)).toMatchObject({ user: { username: 'fault_waiter' } });
  expect(rest).toBe('');
  expect(server.output()).toContain('in-process service timed out');
  expect(await timeouts504()).toBe(counted + 1);
  await expectStillServing(server, token);
  // The store answers again: the same download is whole.
  const res = await fetch(`${server.url}${filePath}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('%PDF-1.4\nstuck');
});

test('a slow upload that keeps sending for longer than the timeout is stored', async () => {
  const { contentType, opening } = multipartOpening('file', 'slow.pdf', 'application/pdf');
  const closing = Buffer.from('\r\n--agoraFaultBoundary--\r\n');
  const chunks = 12;
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      `${server.url}/files`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    void (async () => {
      req.write(Buffer.concat([opening, Buffer.from('%PDF-1.4\n')]));
      for (let i = 0; i < chunks; i++) {
        await sleep(TIMEOUT_MS / 4);
        req.write(Buffer.alloc(1000, 0x20));
      }
      req.end(closing);
    })();
  });
  expect(answer.status).toBe(201);
  const file = (JSON.parse(answer.body) as { file: { size: number } }).file;
  expect(file.size).toBe(9 + chunks * 1000);
  await expectStillServing(server, token);
});

test('a live stream stays open for longer than the timeout', async () => {
  const s = await openStream(server.url, token);
  try {
    expect(s.status).toBe(200);
    await s.next((e) => e.event === 'ready', 10_000, 'ready');
    let ended = false;
    void s.ended.then(() => (ended = true));
    await sleep(TIMEOUT_MS * 3);
    expect(ended).toBe(false);
    // The heartbeat (1 s) is what keeps it moving.
    expect(s.comments).toBeGreaterThanOrEqual(2);
  } finally {
    s.close();
  }
  await expectStillServing(server, token);
});
