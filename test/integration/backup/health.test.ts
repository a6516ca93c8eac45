/**
 * The backup worker run as its own process answers GET /health on PORT (deploy/k8s/base/backup.yaml
 * probes it; issue 25, item 6): 200 with its database and bus connected. A SQLite file of this
 * test, a RabbitMQ vhost and a bucket of its own; the worker's real createApp, as main.ts runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@agora/common/config';
import { freePort } from '@agora/common/db';
import { createApp } from '@agora/backup';
import { createVhost, uniqueName } from '../../harness/env';
import { testBucket } from '../../harness/backup';

test('GET /health answers 200 with the database and the bus connected; nothing else is served', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agora-backup-health-'));
  const vhost = await createVhost(uniqueName('backup_health'));
  const port = await freePort();
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      DOMAIN: 'social.test',
      LOG_LEVEL: 'silent',
      SQLITE_PATH: join(dir, 'agora.db'),
      AMQP_URL: vhost.url,
      ...testBucket().env,
      S3_FORCE_PATH_STYLE: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
  );
  const app = createApp(config);
  try {
    await app.start();
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      engine: 'sqlite',
      services: { mongodb: 'connected', bus: 'connected' },
    });
    expect((await fetch(`http://127.0.0.1:${port}/admin/backup`)).status).toBe(404);
  } finally {
    await app[Symbol.asyncDispose]();
    await vhost.remove();
    rmSync(dir, { recursive: true, force: true });
  }
  // Disposed: the port is closed.
  await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
});
