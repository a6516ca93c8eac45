/** The Redis stamp store against the real Redis: shared by replicas, isolated by prefix, safe when Redis is away. */
import { closeRedis, connectRedis, redisStampStore } from '@agora/common/cache';
import { createLogger } from '@agora/common/logger';
import type { RedisClientType } from 'redis';
import { testEnv, uniqueName } from '../../harness/env';

const logger = createLogger({ level: 'silent', service: 'test' });
const clients: RedisClientType[] = [];
async function client(url = testEnv.redisUrl) {
  const c = await connectRedis(url, logger, 'test');
  clients.push(c);
  return c;
}
afterAll(async () => {
  for (const c of clients) await closeRedis(c);
});

test('two replicas on one prefix see one set of stamps', async () => {
  const prefix = `${uniqueName('stamps')}:`;
  const a = redisStampStore(await client(), prefix, logger);
  const b = redisStampStore(await client(), prefix, logger);
  expect(await a.read(['c:1', 'u:1'])).toEqual([0, 0]);
  await a.bump(['c:1', 'c:1', 'u:1']);
  expect(await b.read(['c:1', 'u:1'])).toEqual([1, 1]);
  await b.bump(['c:1']);
  expect(await a.read(['c:1'])).toEqual([2]);
  // Each stamp expires in time rather than living forever.
  const ttl = await clients[0]!.ttl(`${prefix}stamp:c:1`);
  expect(ttl).toBeGreaterThan(0);
});

test('bumpAll (after a restore) moves every stamp for every replica, bumped or not', async () => {
  const prefix = `${uniqueName('epoch')}:`;
  const a = redisStampStore(await client(), prefix, logger);
  const b = redisStampStore(await client(), prefix, logger);
  await a.bump(['c:1']);
  const before = await b.read(['c:1', 'c:never']);
  await a.bumpAll();
  const after = (await b.read(['c:1', 'c:never']))!;
  expect(after[0]).not.toBe(before![0]);
  expect(after[1]).not.toBe(before![1]);
  // Ordinary bumps still move single stamps after the epoch moved.
  await b.bump(['c:1']);
  expect((await a.read(['c:1']))![0]).not.toBe(after[0]);
});

test('another prefix is another deployment', async () => {
  const r = await client();
  const one = redisStampStore(r, `${uniqueName('one')}:`, logger);
  const two = redisStampStore(r, `${uniqueName('two')}:`, logger);
  await one.bump(['c:x']);
  expect(await two.read(['c:x'])).toEqual([0]);
});

test('with Redis away, reads answer null (callers skip their cache) and bumps do not throw', async () => {
  const away = redisStampStore(await client('redis://127.0.0.1:1'), 'x:', logger);
  expect(await away.read(['c:1'])).toBeNull();
  await expect(away.bump(['c:1'])).resolves.toBeUndefined();
});
