/**
 * Scheduled backups with retention (issue 25, item 6): the task the backup-schedule CronJob
 * runs (`backup-now`, services/backup/src/schedule.ts) queues a backup as POST /admin/backup
 * does and returns once a worker has finished it; after each successful backup the worker
 * deletes the finished backups beyond the newest BACKUP_KEEP, archive and job record alike.
 * The task runs with its own runtime, as the CronJob's pod does, on the server's SQLite file
 * and RabbitMQ vhost; the standalone server's in-process worker takes the jobs. S3 is real (a
 * bucket of this file).
 */
import { join } from 'node:path';
import { loadConfig } from '@agora/common/config';
import { createRuntime, type Runtime } from '@agora/common/runtime';
import type { ObjectStorage } from '@agora/common/storage';
import { scheduledBackup, SCHEDULE_REQUESTER } from '../../services/backup/src/schedule';
import { createVhost, uniqueName } from '../harness/env';
import { testBucket, type Job } from '../harness/backup';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';

let server: TestServer;
let storage: ObjectStorage;
let task: Runtime;
let removeVhost: () => Promise<void>;

beforeAll(async () => {
  const vhost = await createVhost(uniqueName('schedule'));
  removeVhost = vhost.remove;
  const bucket = testBucket();
  storage = bucket.storage;
  const env = { ...bucket.env, AMQP_URL: vhost.url, BACKUP_KEEP: '2', BACKUP_LEASE_SECONDS: '3' };
  server = await bootServer({ ...env, RATE_LIMITING_ENABLED: 'false' });
  const config = loadConfig(
    {},
    {
      ...env,
      NODE_ENV: 'test',
      DOMAIN: 'social.test',
      LOG_LEVEL: 'silent',
      S3_FORCE_PATH_STYLE: 'true',
      SQLITE_PATH: join(server.dataDir, 'agora.db'),
    },
  );
  task = await createRuntime('backup-schedule', config);
});
afterAll(async () => {
  await task?.close();
  await server?.close();
  await removeVhost?.();
});

async function archives(): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage.list('backups/')) keys.push(o.key);
  return keys.sort();
}

test('three scheduled backups with BACKUP_KEEP=2 leave the newest two, archives and records', async () => {
  const done = [];
  for (let i = 0; i < 3; i++) {
    const deps = { jobs: task.repos.backupJobs, events: task.events, logger: task.logger };
    const job = await scheduledBackup(deps, { pollMs: 200, timeoutMs: 60_000 });
    expect(job).toMatchObject({ status: 'done', type: 'backup', requestedBy: SCHEDULE_REQUESTER });
    done.push(job);
    // Archive names carry the time to the second: keep two backups apart.
    await new Promise((r) => setTimeout(r, 1100));
  }
  const api = client(server.url);
  const { token } = (await api.post<{ token: string }>('/auth/login', ADMIN)).body;
  const listed = await api.get<{ jobs: Job[] }>('/admin/backup', { token });
  expect(listed.body.jobs.map((j) => j.id).sort()).toEqual([done[1]!._id, done[2]!._id].sort());
  expect(await archives()).toEqual(
    [`backups/${done[1]!.archiveName}`, `backups/${done[2]!.archiveName}`].sort(),
  );
  expect((await api.get(`/admin/backup/${done[0]!._id}`, { token })).status).toBe(404);
});
