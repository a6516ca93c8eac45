/**
 * Where the real local services of a test run live. scripts/test.sh starts FerretDB and the S3
 * server and exports these; running jest directly works too once they are up (see docs/testing.md).
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const testEnv = {
  mongoUrl: process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27117/',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  amqpUrl: process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  s3Endpoint: process.env.TEST_S3_ENDPOINT ?? 'http://127.0.0.1:9100',
  s3AccessKey: 'test',
  s3SecretKey: 'test',
  ferretdbBin: process.env.FERRETDB_BIN ?? `${__dirname}/../../.tools/bin/ferretdb`,
};

/** A short unique name for a database, vhost, bucket or key prefix of one test file. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`.toLowerCase();
}

/** A MongoDB URL naming a database of its own. */
export function mongoUrlFor(db: string): string {
  const base = testEnv.mongoUrl.endsWith('/') ? testEnv.mongoUrl : `${testEnv.mongoUrl}/`;
  return `${base}${db}`;
}

/** A RabbitMQ vhost of its own (created with rabbitmqctl); returns its AMQP URL and a remover. */
export async function createVhost(name: string): Promise<{ url: string; remove: () => Promise<void> }> {
  await run('rabbitmqctl', ['-q', 'add_vhost', name]);
  await run('rabbitmqctl', ['-q', 'set_permissions', '-p', name, 'guest', '.*', '.*', '.*']);
  const base = testEnv.amqpUrl.replace(/\/+$/, '');
  return {
    url: `${base}/${encodeURIComponent(name)}`,
    remove: async () => {
      await run('rabbitmqctl', ['-q', 'delete_vhost', name]).catch(() => undefined);
    },
  };
}
