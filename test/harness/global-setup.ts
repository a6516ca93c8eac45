import { createConnection } from 'node:net';
import { testEnv } from './env';

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = createConnection({ host: u.hostname, port: Number(u.port) });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.setTimeout(2000, () => (s.destroy(), resolve(false)));
  });
}

/** Integration and e2e tests need the real services; say clearly which one is missing. */
export default async function globalSetup(): Promise<void> {
  const needs: Array<[string, string]> = [
    ['FerretDB/MongoDB (TEST_MONGO_URL)', testEnv.mongoUrl],
    ['Redis (TEST_REDIS_URL)', testEnv.redisUrl],
    ['RabbitMQ (TEST_AMQP_URL)', testEnv.amqpUrl],
    ['S3 server (TEST_S3_ENDPOINT)', testEnv.s3Endpoint],
  ];
  const missing: string[] = [];
  for (const [name, url] of needs) if (!(await reachable(url))) missing.push(`${name} at ${url}`);
  if (missing.length) {
    throw new Error(
      `Test services not reachable: ${missing.join('; ')}. Run the suite with \`npm test\`, which starts them.`,
    );
  }
}
