/** The Redis replay guard against the real Redis: shared by replicas, atomic, expiring, fail-closed. */
import { closeRedis, connectRedis } from '@agora/common/cache';
import { ServiceUnavailable } from '@agora/common/errors';
import { createLogger } from '@agora/common/logger';
import { redisReplayGuard } from '@agora/common/federation';
import type { RedisClientType } from 'redis';
import { testEnv, uniqueName } from '../../harness/env';

const logger = createLogger({ level: 'silent', service: 'test' });
const clients: RedisClientType[] = [];
async function client() {
  const c = await connectRedis(testEnv.redisUrl, logger, 'test');
  clients.push(c);
  return c;
}
afterAll(async () => {
  for (const c of clients) await closeRedis(c);
});

test('two replicas on one prefix see one set of signatures, each expiring with its TTL', async () => {
  const prefix = `${uniqueName('replay')}:`;
  const a = redisReplayGuard(await client(), prefix);
  const b = redisReplayGuard(await client(), prefix);
  expect(await a.seen('h1', 60_000)).toBe(false);
  expect(await b.seen('h1', 60_000)).toBe(true);
  expect(await a.seen('h1', 60_000)).toBe(true);
  const pttl = await clients[0]!.pTTL(`${prefix}sig:h1`);
  expect(pttl).toBeGreaterThan(50_000);
  expect(pttl).toBeLessThanOrEqual(60_000);

  expect(await a.seen('short', 50)).toBe(false);
  await new Promise((r) => setTimeout(r, 120));
  expect(await b.seen('short', 50)).toBe(false);
});

test('of many concurrent arrivals of one signature, exactly one is accepted', async () => {
  const prefix = `${uniqueName('race')}:`;
  const guards = [redisReplayGuard(await client(), prefix), redisReplayGuard(await client(), prefix)];
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => guards[i % 2]!.seen('same', 60_000)),
  );
  expect(answers.filter((seen) => !seen)).toHaveLength(1);
});

test('another prefix is another deployment', async () => {
  const r = await client();
  await redisReplayGuard(r, `${uniqueName('one')}:`).seen('h', 60_000);
  expect(await redisReplayGuard(r, `${uniqueName('two')}:`).seen('h', 60_000)).toBe(false);
});

test('with Redis away the guard fails closed with 503, never lets a signature through unchecked', async () => {
  // A closed client rather than an unreachable URL: the latter keeps reconnecting past the test.
  const closed = await client();
  await closeRedis(closed);
  await expect(redisReplayGuard(closed, 'x:').seen('h', 1000)).rejects.toBeInstanceOf(ServiceUnavailable);
});
