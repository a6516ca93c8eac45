/**
 * Standalone mode: every service and worker in one process behind the gateway, with embedded
 * defaults for anything not configured (SQLite in this process through node:sqlite, in-process
 * bus, disk storage, in-memory limits). The gateway hands each request to its service's app in
 * this process (services/gateway/src/in-process.ts: no loopback HTTP hop); the services still
 * listen on loopback ports of their own, which the gateway's `/health`, `/__routes` and OpenAPI
 * aggregation read, as in the cluster.
 */
import { join } from 'node:path';
import { memoryStampStore } from '@agora/common/cache';
import type { Config } from '@agora/common/config';
import { ActivitiesStore, openDatabase } from '@agora/common/db';
import { sqlitePathOf } from '@agora/common/runtime';
import { createLogger } from '@agora/common/logger';
import { createBus, startOutboxRelay } from '@agora/common/messaging';
import { storageFromConfig, type SharedDeps } from '@agora/common/runtime';
import type { ServiceApp } from '@agora/common/service';
import { createApp as createGateway, type GatewayApp } from '@agora/gateway';
import { createApp as createSocial } from '@agora/social';
import { createApp as createAdmin } from '@agora/admin';
import { createApp as createFederation } from '@agora/federation';
import { createApp as createNotifications } from '@agora/notifications';
import { createApp as createBackup } from '@agora/backup';

export interface Standalone {
  url: string;
  services: ServiceApp[];
  gateway: GatewayApp;
  close(): Promise<void>;
}

export interface StandaloneOptions {
  /** Create `admin` with a random password when no ADMIN_USERNAME/ADMIN_PASSWORD is set. */
  generateAdmin?: boolean;
}

export async function startStandalone(given: Config, opts: StandaloneOptions = {}): Promise<Standalone> {
  // One process, one log file by default (GET /admin/system/logs reads it).
  const config: Config = { ...given, LOG_FILE: given.LOG_FILE ?? join(given.DATA_DIR, 'logs', 'app.log') };
  const logger = createLogger({ level: config.LOG_LEVEL, service: 'standalone', file: config.LOG_FILE });
  const db = await openDatabase({
    logger,
    mongoUrl: config.MONGO_URL,
    sqlitePath: sqlitePathOf(config),
    sqliteSync: config.EMBEDDED_DB_SYNC,
    // A store query no declared index serves fails a test instead of scanning in production.
    checkIndexes: config.NODE_ENV === 'test',
  });
  const bus = createBus({
    ...(config.AMQP_URL ? { url: config.AMQP_URL } : {}),
    logger,
    service: 'standalone',
  });
  const storage = storageFromConfig(config);
  await storage.ensureBucket();
  // One process: without Redis, every service shares one in-memory stamp store; one outbox relay
  // serves the services that write activities (social, admin, federation), not one each.
  const shared: SharedDeps = {
    logger,
    db,
    bus,
    storage,
    outboxRelay: 'process',
    ...(config.REDIS_URL ? {} : { stamps: memoryStampStore() }),
  };

  const local = { shared, port: 0, host: '127.0.0.1' };

  const social = createSocial(config, {
    ...local,
    bootstrap: { generateAdmin: opts.generateAdmin ?? false },
  });
  // Social bootstraps keys and settings that the others read, so it starts first.
  await social.start();
  const others = [
    createAdmin(config, local),
    createFederation(config, local),
    createNotifications(config, local),
    // BACKUP_WORKER=false: a separate worker process serves this database and broker.
    ...(config.BACKUP_WORKER ? [createBackup(config, { shared })] : []),
  ];
  await Promise.all(others.map((s) => s.start()));
  // Once every consumer is subscribed: on the in-process bus an event no queue is bound to is gone.
  const stopRelay = startOutboxRelay(
    { bus, stores: { activities: new ActivitiesStore(db.engine) }, logger },
    { intervalMs: config.OUTBOX_RELAY_INTERVAL_MS, graceMs: config.OUTBOX_RELAY_GRACE_MS },
  );
  const services = [social, ...others];
  const url = (s: ServiceApp) => s.url!;
  const handler = (s: ServiceApp) => s.handler!;
  const gateway = createGateway(config, {
    logger,
    targets: {
      social: url(social),
      admin: url(others[0]!),
      federation: url(others[1]!),
      notifications: url(others[2]!),
    },
    local: {
      social: handler(social),
      admin: handler(others[0]!),
      federation: handler(others[1]!),
      notifications: handler(others[2]!),
    },
  });
  const server = await gateway.start();

  return {
    url: server.url,
    services,
    gateway,
    async close() {
      await gateway[Symbol.asyncDispose]();
      for (const s of services.reverse()) await s[Symbol.asyncDispose]();
      await stopRelay();
      await bus.close();
      await db.close();
    },
  };
}
