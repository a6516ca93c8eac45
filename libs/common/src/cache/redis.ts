/**
 * One way to open a Redis connection for every process: fail fast while Redis is away (callers
 * fall back to memory or skip their cache), keep reconnecting in the background.
 */
import type { RedisClientType } from 'redis';
import type { Logger } from '../logger';

export async function connectRedis(url: string, logger: Logger, role: string): Promise<RedisClientType> {
  // Loaded here, not at start: a process with no REDIS_URL never holds the client (~20 MB).
  const { createClient } = await import('redis');
  const client: RedisClientType = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2000,
      reconnectStrategy: (n: number) => Math.min(5000, 100 * 2 ** Math.min(n, 6)),
    },
  });
  let warned = false;
  client.on('error', (err: Error) => {
    if (!warned) logger.warn({ err: err.message }, `redis error (${role})`);
    warned = true;
  });
  client.on('ready', () => {
    warned = false;
  });
  // Wait briefly for the first connection; past that the client keeps trying in the background.
  const connecting = client.connect().then(
    () => true,
    (err: Error) => (logger.warn({ err: err.message }, 'redis connection failed'), false),
  );
  const ready = await Promise.race([
    connecting,
    new Promise<boolean>((r) => setTimeout(() => r(false), 2000).unref()),
  ]);
  if (!ready) logger.warn(`redis not reachable at start (${role})`);
  return client;
}

/** Closes gracefully when connected, at once otherwise. */
export async function closeRedis(client: RedisClientType): Promise<void> {
  if (client.isReady) await client.close();
  else if (client.isOpen) client.destroy();
}
