/**
 * Only the services that keep objects ask object storage for their bucket at start (social,
 * admin and the backup worker). Federation and notifications hold no S3 credentials in the
 * cluster (deploy/k8s/secrets.example: per-service secrets), so asking would only log a false
 * "object storage not reachable" on every start. Each service here starts alone on a SQLite file
 * of its own, with an object storage endpoint nothing answers, and logs to a file.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@agora/common/config';
import { createApp as createFederation } from '@agora/federation';
import { createApp as createNotifications } from '@agora/notifications';
import { createApp as createSocial } from '@agora/social';
import { waitFor } from '../harness/standalone';

const NOT_REACHABLE = 'object storage not reachable at start';

async function startLogs(create: typeof createSocial): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-storage-start-'));
  const logFile = join(dir, 'service.log');
  const config = loadConfig(
    {},
    {
      DATA_DIR: dir,
      SQLITE_PATH: join(dir, 'agora.db'),
      DOMAIN: 'storage.test',
      LOG_LEVEL: 'info',
      LOG_FILE: logFile,
      // Nothing listens on port 1: a bucket check fails at once.
      S3_ENDPOINT: 'http://127.0.0.1:1',
      S3_FORCE_PATH_STYLE: 'true',
    },
  );
  const app = create(config, { port: 0, host: '127.0.0.1' });
  await app.start();
  await app[Symbol.asyncDispose]();
  // The log file is written asynchronously: read it once it holds the "listening" line, which
  // comes after the bucket check (awaited while the runtime is made).
  const read = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  await waitFor(() => Promise.resolve(read().includes('listening')), 10_000);
  return read();
}

test('social asks for its bucket at start (the control: the endpoint is unreachable)', async () => {
  expect(await startLogs(createSocial)).toContain(NOT_REACHABLE);
});

test('federation and notifications never ask object storage', async () => {
  expect(await startLogs(createFederation)).not.toContain(NOT_REACHABLE);
  expect(await startLogs(createNotifications)).not.toContain(NOT_REACHABLE);
});
