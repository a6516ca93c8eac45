/**
 * The container provider of the test harness: where a Docker engine is reachable, MongoDB 7,
 * Redis, RabbitMQ and an S3 store come from testcontainers instead of the local services.
 * `scripts/test.sh` uses it when TEST_PROVIDER=containers; it prints the TEST_* variables as
 * shell assignments and keeps the containers until it is stopped. This machine has no Docker
 * engine, so this path is not exercised by CI here (docs/testing.md).
 */
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';

async function start(
  image: string,
  port: number,
  opts: { env?: Record<string, string>; cmd?: string[] } = {},
): Promise<StartedTestContainer> {
  let c = new GenericContainer(image).withExposedPorts(port).withWaitStrategy(Wait.forListeningPorts());
  if (opts.env) c = c.withEnvironment(opts.env);
  if (opts.cmd) c = c.withCommand(opts.cmd);
  return c.start();
}

async function main(): Promise<void> {
  const [mongo, redis, rabbit, s3] = await Promise.all([
    start('mongo:7', 27017),
    start('redis:7', 6379),
    start('rabbitmq:3', 5672),
    start('chrislusf/seaweedfs:3.80', 8333, { cmd: ['server', '-s3', '-dir=/data'] }),
  ]);
  const url = (c: StartedTestContainer, port: number) => `${c.getHost()}:${c.getMappedPort(port)}`;
  const lines = [
    `TEST_MONGO_URL=mongodb://${url(mongo, 27017)}/`,
    `TEST_REDIS_URL=redis://${url(redis, 6379)}`,
    `TEST_AMQP_URL=amqp://guest:guest@${url(rabbit, 5672)}`,
    `TEST_S3_ENDPOINT=http://${url(s3, 8333)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\nREADY\n`);
  const stop = () =>
    void Promise.all([mongo, redis, rabbit, s3].map((c) => c.stop())).then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
