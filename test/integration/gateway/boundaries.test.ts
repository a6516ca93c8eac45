/**
 * Package boundaries (docs/architecture.md): the gateway never touches MongoDB, RabbitMQ or the
 * object store, so its process must not even load their clients. The gateway's real entry
 * (services/gateway/src/main.ts) runs as a process of its own with the environment deploy/k8s
 * gives it (MONGO_URL, AMQP_URL and the S3 keys included, pointed at the real test services) and
 * the real Redis. Once it has answered /health and proxied a signed request, it writes the list
 * of every module it loaded (test/harness/loaded-modules.ts), which must name none of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '@agora/common/db';
import { k8sEnv } from '../../harness/k8s-env';
import { loadedModules } from '../../harness/module-list';
import { mongoUrlFor, testEnv, uniqueName } from '../../harness/env';
import { startUpstream, type Upstream } from '../../harness/upstream';

const ROOT = join(__dirname, '..', '..', '..');
const FORBIDDEN = ['mongoose', 'mongodb', 'amqplib', '@aws-sdk/client-s3'];
const env = k8sEnv('gateway');

let upstream: Upstream;
let child: ChildProcess;
let dir: string;
let output = '';
let url = '';

beforeAll(async () => {
  upstream = await startUpstream(env.DOMAIN!);
  dir = mkdtempSync(join(tmpdir(), 'agora-boundaries-'));
  const port = await freePort();
  const u = upstream.url;
  child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      join(ROOT, 'test/harness/loaded-modules.ts'),
      join(ROOT, 'services/gateway/src/main.ts'),
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        MONGO_URL: mongoUrlFor(uniqueName('boundaries')),
        REDIS_URL: testEnv.redisUrl,
        REDIS_PREFIX: `${uniqueName('boundaries')}:`,
        AMQP_URL: testEnv.amqpUrl,
        S3_ENDPOINT: testEnv.s3Endpoint,
        S3_ACCESS_KEY: testEnv.s3AccessKey,
        S3_SECRET_KEY: testEnv.s3SecretKey,
        S3_FORCE_PATH_STYLE: 'true',
        SERVICE_URLS: `social=${u},admin=${u},federation=${u},notifications=${u}`,
        LOADED_MODULES_FILE: join(dir, 'modules.txt'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  await Promise.race([
    waitForPort(port, 60_000),
    new Promise((_, reject) =>
      child.once('exit', (c) => reject(new Error(`gateway exited ${c}:\n${output}`))),
    ),
  ]);
  url = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const listModules = () => loadedModules(child, join(dir, 'modules.txt'), () => output);

const fromPackage = (modules: string[], pkg: string) =>
  modules.filter((m) => m.includes(`/node_modules/${pkg}/`));

test('the gateway process serves without loading mongoose, amqplib or the S3 client', async () => {
  const health = await fetch(`${url}/health`);
  expect(health.status).toBe(200);
  // A proxied request with a token: identification (JWKS, jose) and the proxy have run too.
  const token = await upstream.sign('alice');
  const proxied = await fetch(`${url}/users/alice`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  expect(proxied.status).toBe(200);
  expect(upstream.requests.map((r) => r.url)).toContain('/users/alice');

  const modules = await listModules();
  // The list is real: it names what the gateway does use.
  expect(fromPackage(modules, 'express').length).toBeGreaterThan(0);
  expect(fromPackage(modules, '@redis/client').length).toBeGreaterThan(0);
  expect(modules).toContain(join(ROOT, 'services/gateway/src/app.ts'));
  expect(FORBIDDEN.filter((pkg) => fromPackage(modules, pkg).length > 0)).toEqual([]);
});
