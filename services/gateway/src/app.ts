/**
 * The gateway: the edge of spec sections 1.2, 1.3, 1.6, 1.7 and 5, then a proxy to the domain
 * services. It never touches MongoDB.
 */
import express from 'express';
import { closeRedis, connectRedis } from '@agora/common/cache';
import type { Config } from '@agora/common/config';
import { listen, requestId, errorMiddleware, type RunningServer } from '@agora/common/http';
import { createLogger, type Logger } from '@agora/common/logger';
import { parseServiceUrls, SERVICE_NAMES, type ServiceName } from '@agora/common/routing';
import { join } from 'node:path';
import type { RedisClientType } from 'redis';
import { createProxy } from './proxy';
import { inProcess, type LocalService } from './in-process';
import { healthAggregate, routesHandler } from './aggregate';
import { cors } from './cors';
import { bodyLimits } from './body-limit';
import { createVerifier, identify } from './identity';
import { adminEdgeGuard, outboxAnonymousGuard } from './guards';
import { rateLimits } from './rate-limit';
import { loginThrottle } from './login-throttle';
import { canonicalUrl, securityHeaders } from './canonical';
import { outboxDedupe } from './dedupe';
import { memoryHoldStore, redisHoldStore, withFallback } from './stores';
import { spa } from './browser';
import { compress } from './compress';
import { edgeRouteOf } from './route-label';
import { httpMetrics } from '@agora/common/metrics';
import { distrustTraceContext } from '@agora/common/telemetry';
import { openApiRoutes } from './openapi';

export const WEB_DIST = join(__dirname, '..', '..', '..', 'web', 'dist');

export interface GatewayOptions {
  /** Service base URLs (one or several replicas each); defaults to SERVICE_URLS. */
  targets?: Partial<Record<ServiceName, string | string[]>>;
  logger?: Logger;
  port?: number;
  host?: string;
  /**
   * Services whose app runs in this process (standalone): their requests are handed to the app
   * directly instead of through the HTTP proxy (in-process.ts). The others are proxied.
   */
  local?: Partial<Record<ServiceName, LocalService>>;
}

export interface GatewayApp {
  readonly name: 'gateway';
  readonly url: string | undefined;
  start(): Promise<RunningServer>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Every service's replicas: SERVICE_URLS, with `given` taking precedence per service. */
export function resolveTargets(
  config: Config,
  given?: Partial<Record<ServiceName, string | string[]>>,
): Record<ServiceName, string[]> {
  const merged: Partial<Record<ServiceName, string[]>> = parseServiceUrls(config.SERVICE_URLS);
  for (const [name, urls] of Object.entries(given ?? {}) as [ServiceName, string | string[]][])
    merged[name] = typeof urls === 'string' ? [urls] : urls;
  const missing = SERVICE_NAMES.filter((n) => !merged[n]?.length);
  if (missing.length) throw new Error(`SERVICE_URLS: no URL for ${missing.join(', ')}`);
  return merged as Record<ServiceName, string[]>;
}

export function buildGateway(
  config: Config,
  targets: Record<ServiceName, string[]>,
  logger: Logger,
  redis?: RedisClientType,
  local: Partial<Record<ServiceName, LocalService>> = {},
) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'extended');
  app.use(httpMetrics('gateway', edgeRouteOf));
  app.use(securityHeaders);
  app.use(canonicalUrl);
  app.use(requestId);
  app.use(compress());
  app.get('/__routes', routesHandler(targets));
  app.get(
    '/health',
    healthAggregate(targets, redis ? { redis: () => Promise.resolve({ ok: redis.isReady }) } : {}),
  );
  app.use(openApiRoutes(targets));
  app.use(cors(config));
  if (config.SERVE_FRONTEND) {
    const web = spa(WEB_DIST);
    app.use(web.guard, web.assets);
  }
  app.use(bodyLimits(config));
  const verifier = createVerifier(
    config,
    targets.federation.map((u) => `${u}/.well-known/jwks.json`),
  );
  app.use(identify(verifier));
  app.use(adminEdgeGuard(verifier));
  const limits = { enabled: config.RATE_LIMITING_ENABLED, redis, prefix: config.REDIS_PREFIX };
  app.use(rateLimits(limits));
  app.use(loginThrottle({ ...limits, domain: config.DOMAIN }));
  app.use(outboxAnonymousGuard);
  const holds = redis
    ? withFallback(redisHoldStore(redis, config.REDIS_PREFIX), memoryHoldStore())
    : memoryHoldStore();
  app.use(outboxDedupe({ enabled: config.RATE_LIMITING_ENABLED, store: holds }));
  const timeoutMs = config.UPSTREAM_TIMEOUT_SECONDS * 1000;
  const proxy = createProxy({ targets, logger, timeoutMs });
  app.use(inProcess(local, proxy.handler, { timeoutMs, logger }));
  app.use(errorMiddleware(logger));
  return { app, agent: proxy.agent };
}

export function createApp(config: Config, opts: GatewayOptions = {}): GatewayApp {
  const logger =
    opts.logger?.child({ service: 'gateway' }) ??
    createLogger({ level: config.LOG_LEVEL, service: 'gateway', file: config.LOG_FILE });
  let server: RunningServer | undefined;
  let agent: { destroy(): void } | undefined;
  let redis: RedisClientType | undefined;
  return {
    name: 'gateway',
    get url() {
      return server?.url;
    },
    async start() {
      if (config.REDIS_URL)
        redis = await connectRedis(config.REDIS_URL, logger, 'the edge falls back to per-process memory');
      const built = buildGateway(config, resolveTargets(config, opts.targets), logger, redis, opts.local);
      agent = built.agent;
      server = await listen(built.app, opts.port ?? config.PORT, opts.host ?? config.HOST);
      if (!config.TRACE_TRUST_INCOMING) distrustTraceContext(server.server);
      logger.info({ url: server.url }, 'gateway listening');
      return server;
    },
    async [Symbol.asyncDispose]() {
      await server?.close(config.SHUTDOWN_GRACE_SECONDS * 1000);
      agent?.destroy();
      if (redis) await closeRedis(redis);
    },
  };
}
