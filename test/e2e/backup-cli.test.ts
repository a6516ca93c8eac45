/**
 * `npm run backup` and `npm run restore` (scripts/backup-cli.ts) against a running server: the
 * backup downloads the archive with a progress bar and the job it ran is done; the restore uploads
 * it and follows the job; a missing file is refused. RabbitMQ and S3 are real (a vhost and a
 * bucket of this file); the rest of backup and restore: backup.test.ts.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ObjectStorage } from '@agora/common/storage';
import { outbox, registerActor } from '../harness/actors';
import { createVhost, uniqueName } from '../harness/env';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { testBucket, wipeStore, type Job } from '../harness/backup';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let storage: ObjectStorage;
let removeVhost: () => Promise<void>;

const as = (token: string) => ({ token });

beforeAll(async () => {
  const vhost = await createVhost(uniqueName('backup_cli'));
  removeVhost = vhost.remove;
  const bucket = testBucket();
  storage = bucket.storage;
  server = await bootServer({ ...bucket.env, AMQP_URL: vhost.url, RATE_LIMITING_ENABLED: 'false' });
  api = client(server.url);
  const res = await api.post<{ token: string }>('/auth/login', ADMIN);
  if (res.status !== 200) throw new Error(`admin login: ${res.status}`);
  admin = res.body.token;
  const alice = await registerActor(api, 'cli_alice');
  const post = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'kept by the CLI' },
  });
  if (post.status !== 201) throw new Error(`post: ${post.status}`);
});

afterAll(async () => {
  await server?.close();
  await wipeStore(storage).catch(() => undefined);
  await removeVhost?.();
});

describe('CLI (npm run backup / npm run restore)', () => {
  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(__dirname, '..', '..', 'scripts', 'backup-cli.ts'), ...args],
        {
          env: { ...process.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  test('backup downloads the archive with a progress bar; restore uploads it and follows the job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agora-cli-'));
    try {
      const b = await cli(['backup', '--url', server.url, '--out', dir]);
      expect(b.code).toBe(0);
      expect(b.stderr).toMatch(/\[#+-*\]\s+\d+% /);
      const file = b.stdout.trim();
      expect(file.startsWith(dir)).toBe(true);
      const jobs = (await api.get<{ jobs: Job[] }>('/admin/backup', as(admin))).body.jobs;
      const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
      expect(jobs.find((j) => j.archiveSha256 === sha)?.status).toBe('done');

      const r = await cli(['restore', file, '--url', server.url]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout.trim())).toMatchObject({ verified: true });
      const missing = await cli(['restore', join(dir, 'nope.tar.gz'), '--url', server.url]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/no such file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
