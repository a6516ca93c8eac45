/**
 * What every service process holds: config, logger, database and repositories, token service,
 * message bus and object storage. Standalone mode shares one database connection, one
 * in-process bus and one storage between all services by passing them in `shared`.
 */
import { join } from 'node:path';
import type { Config } from './config';
import { createLogger, type Logger } from './logger';
import { createStores, openDatabase, pickStores, type Database, type Stores } from './db';
import { TokenService } from './auth/tokens';
import { settingsKeySource } from './auth/settings-keys';
import { createBus, createEventBus, type EventBus, type MessageBus } from './messaging';
import { createDiskStorage, createS3Storage, type ObjectStorage } from './storage';
import type { RedisClientType } from 'redis';
import {
  CIRCUIT_DEFAULTS,
  createFederation,
  memoryCircuitBreaker,
  memoryReplayGuard,
  redisCircuitBreaker,
  redisReplayGuard,
  type Federation,
} from './federation';
import {
  closeRedis,
  connectRedis,
  memoryStampStore,
  redisStampStore,
  STAMPS,
  type StampStore,
} from './cache';

export interface Runtime {
  name: string;
  config: Config;
  logger: Logger;
  db: Database;
  repos: Stores;
  tokens: TokenService;
  /** The raw bus: for the adapters, the outbox relay and health checks. Services use `events`. */
  bus: MessageBus;
  /** The bus typed from the event catalogue (messaging/catalogue.ts). */
  events: EventBus;
  storage: ObjectStorage;
  /** Cache stamps (Redis when REDIS_URL is set, so every replica sees one set). */
  stamps: StampStore;
  /** Signed server-to-server requests and the safe outbound client. */
  federation: Federation;
  close(): Promise<void>;
}

/** What every service's context holds (docs/architecture.md, contexts). */
export interface BaseContext<S> {
  config: Config;
  logger: Logger;
  /** The stores the service names, and nothing else of the repositories. */
  stores: S;
  /** Events and jobs, typed from the catalogue (messaging/catalogue.ts). */
  events: EventBus;
}

/** Runtime members a context may hold besides the base (never the database or the repositories). */
export type ContextMember = 'bus' | 'storage' | 'stamps' | 'tokens' | 'federation';

/**
 * A service's context: the base, the named stores and the named runtime members, copied one by
 * one so the context holds exactly those (each service's `context.ts` names them).
 */
export function serviceContext<K extends keyof Stores, M extends ContextMember>(
  rt: Runtime,
  stores: readonly K[],
  members: readonly M[],
): BaseContext<Pick<Stores, K>> & Pick<Runtime, M> {
  const picked = Object.fromEntries(members.map((m) => [m, rt[m]])) as Pick<Runtime, M>;
  return {
    config: rt.config,
    logger: rt.logger,
    stores: pickStores(rt.repos, stores),
    events: rt.events,
    ...picked,
  };
}

export interface SharedDeps {
  logger?: Logger;
  db?: Database;
  bus?: MessageBus;
  storage?: ObjectStorage;
  stamps?: StampStore;
  /**
   * `process`: the process runs one outbox relay over the shared database and bus (standalone),
   * so the services start none of their own.
   */
  outboxRelay?: 'process';
}

export function storageFromConfig(config: Config): ObjectStorage {
  if (config.S3_ENDPOINT || config.S3_ACCESS_KEY) {
    return createS3Storage({
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      ...(config.S3_ACCESS_KEY ? { accessKeyId: config.S3_ACCESS_KEY } : {}),
      ...(config.S3_SECRET_KEY ? { secretAccessKey: config.S3_SECRET_KEY } : {}),
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return createDiskStorage({ root: join(config.DATA_DIR, 'objects') });
}

/** The SQLite file of this configuration (several processes may share it). */
export function sqlitePathOf(config: Config): string {
  return config.SQLITE_PATH ?? join(config.DATA_DIR, 'agora.db');
}

export async function createRuntime(
  name: string,
  config: Config,
  shared: SharedDeps = {},
  opts: { keepsObjects?: boolean } = {},
): Promise<Runtime> {
  const logger =
    shared.logger?.child({ service: name }) ??
    createLogger({ level: config.LOG_LEVEL, service: name, file: config.LOG_FILE });
  // A service on its own must name its database: a replica that fell back to a file of its own
  // would serve data no other replica sees.
  if (!shared.db && !config.MONGO_URL && !config.SQLITE_PATH)
    throw new Error(
      'A service run on its own needs MONGO_URL (MongoDB) or SQLITE_PATH (one SQLite file that every process on this machine shares)',
    );
  const db =
    shared.db ??
    (await openDatabase({
      logger,
      mongoUrl: config.MONGO_URL,
      sqlitePath: sqlitePathOf(config),
      sqliteSync: config.EMBEDDED_DB_SYNC,
      checkIndexes: config.NODE_ENV === 'test',
    }));
  const redis: RedisClientType | undefined = config.REDIS_URL
    ? await connectRedis(
        config.REDIS_URL,
        logger,
        'caches are skipped and signed requests refused until it answers',
      )
    : undefined;
  const stampStore =
    shared.stamps ?? (redis ? redisStampStore(redis, config.REDIS_PREFIX, logger) : memoryStampStore());
  const cooldownMs = config.FEDERATION_BREAKER_COOLDOWN_SECONDS * 1000;
  const cooldowns = { cooldownMs, maxCooldownMs: Math.max(cooldownMs, CIRCUIT_DEFAULTS.maxCooldownMs) };
  const federation = createFederation(config, {
    replay: redis ? redisReplayGuard(redis, config.REDIS_PREFIX) : memoryReplayGuard(),
    breaker: redis
      ? redisCircuitBreaker(redis, config.REDIS_PREFIX, {
          ...cooldowns,
          onError: (err, op, domain) =>
            logger.warn(
              { err: (err as Error).message, op, domain },
              'circuit breaker store failed; sending anyway',
            ),
        })
      : memoryCircuitBreaker(cooldowns),
  });
  // A membership change makes the circle and the member's audiences stale in every cache.
  const repos = createStores(
    db,
    config.DOMAIN,
    {
      onMembershipChange: (circleId, memberIds) =>
        stampStore.bump([STAMPS.circle(circleId), ...memberIds.map((id) => STAMPS.viewer(id))]),
      bump: (names) => stampStore.bump(names),
      readStamps: (names) => stampStore.read(names),
      log: logger,
    },
    config.publicUrl,
  );
  const tokens = new TokenService({
    domain: config.DOMAIN,
    keys: settingsKeySource(repos.settings),
    hmacSecret: config.hmacSecret,
    ttlSeconds: config.tokenTtlSeconds,
    publicUrl: config.publicUrl,
  });
  const bus =
    shared.bus ?? createBus({ ...(config.AMQP_URL ? { url: config.AMQP_URL } : {}), logger, service: name });
  const storage = shared.storage ?? storageFromConfig(config);
  // Every process that keeps objects makes sure its bucket exists (idempotent), so a cluster
  // needs no init job. The others (federation, notifications) hold no S3 credentials in the
  // cluster (per-service secrets) and never ask.
  if (!shared.storage && opts.keepsObjects !== false)
    await storage
      .ensureBucket()
      .catch((err: Error) => logger.warn({ err: err.message }, 'object storage not reachable at start'));
  return {
    name,
    config,
    logger,
    db,
    repos,
    tokens,
    bus,
    events: createEventBus(bus, logger),
    storage,
    stamps: stampStore,
    federation,
    async close() {
      federation.close();
      if (redis) await closeRedis(redis);
      if (!shared.bus) await bus.close();
      if (!shared.db) await db.close();
    },
  };
}
