/**
 * A backup worker killed mid-backup (SIGKILL, as a crash or an OOM kill would): the job must end
 * `failed` with the reason, never `done` with a partial archive, and the queue must be free
 * again. The workers are real separate processes (`services/backup/src/main.ts`) on the same
 * database (one SQLite file: several processes on FerretDB are refused, ADR 0013), RabbitMQ vhost
 * and bucket as the server, which runs without its in-process worker.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '@agora/common/db';
import type { ObjectStorage } from '@agora/common/storage';
import { createVhost, uniqueName } from '../harness/env';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { testBucket, waitForJob, wipeStore, type Job } from '../harness/backup';

const ROOT = join(__dirname, '..', '..');
let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let storage: ObjectStorage;
let env: Record<string, string>;
let removeVhost: () => Promise<void>;
const dir = mkdtempSync(join(tmpdir(), 'e2e-bkkill-'));
const workers: ChildProcess[] = [];

/** Starts a worker process and resolves once it consumes (its "ready" log line). */
async function startWorker(): Promise<ChildProcess> {
  // Its own port for its health and metrics listeners (the default 8080 may be anyone's).
  const ports = { PORT: String(await freePort()), METRICS_PORT: String(await freePort()) };
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'services/backup/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, ...ports, LOG_LEVEL: 'info', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  workers.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker did not start within 60 s')), 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('backup worker ready')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

beforeAll(async () => {
  const vhost = await createVhost(uniqueName('bkkill'));
  removeVhost = vhost.remove;
  const bucket = testBucket();
  storage = bucket.storage;
  env = {
    ...bucket.env,
    AMQP_URL: vhost.url,
    SQLITE_PATH: join(dir, 'agora.db'),
    DOMAIN: 'social.test',
    BACKUP_LEASE_SECONDS: '2',
    BACKUP_WORKER: 'false',
  };
  server = await bootServer(env);
  api = client(server.url);
  admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  // Enough bytes that the archive takes a while to write: the kill lands in the middle.
  for (let i = 0; i < 48; i++) await storage.put(`files/big/${i}.bin`, randomBytes(1024 * 1024));
});

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await server?.close();
  await wipeStore(storage).catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
  await removeVhost?.();
});

async function archives(): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage.list('backups/')) keys.push(o.key);
  return keys;
}

test('killed mid-backup: the job fails with the reason, no archive is kept, and the next backup runs', async () => {
  const first = await startWorker();
  const queued = await api.post<{ job: Job }>('/admin/backup', undefined, { token: admin });
  expect(queued.status).toBe(202);
  const id = queued.body.job.id;

  // Wait until the worker is archiving objects, then kill it without warning.
  let seen: Job | undefined;
  for (let i = 0; i < 600; i++) {
    seen = (await api.get<{ job: Job }>(`/admin/backup/${id}`, { token: admin })).body.job;
    // (The status is written before the first progress: wait for the objects stage itself.)
    if (seen.progress.stage === 'objects' || seen.status === 'done' || seen.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(seen).toMatchObject({ status: 'running', progress: { stage: 'objects' } });
  first.kill('SIGKILL');

  // Another replica notices the lapsed lease and fails the job.
  await startWorker();
  const ended = await waitForJob(api, admin, id, { timeoutMs: 60_000 });
  expect(ended.status).toBe('failed');
  expect(ended.error).toMatch(/stopped renewing its lease .* nothing it wrote counts/);
  expect(ended.archiveName).toBeNull();
  expect(await archives()).toEqual([]);

  // The queue is free again and the surviving worker completes a backup.
  const next = await api.post<{ job: Job }>('/admin/backup', undefined, { token: admin });
  expect(next.status).toBe(202);
  const done = await waitForJob(api, admin, next.body.job.id, { timeoutMs: 120_000 });
  expect(done.status).toBe('done');
  expect(done.progress.counts).toMatchObject({ objects: 48 });
  expect(await archives()).toEqual([`backups/${done.archiveName}`]);
});
