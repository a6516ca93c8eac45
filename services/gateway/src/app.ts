/**
 * The gateway: the edge of spec sections 1.2, 1.3, 1.6, 1.7 and 5, then a proxy to the domain
 * services. It never touches MongoDB.
 */
import express from 'express';
import {
  createLogger,
  listen,
  parseServiceUrls,
  requestId,
  errorMiddleware,
  SERVICE_NAMES,
  type Config,
  type Logger,
  type RunningServer,
  type ServiceName,
} from '@agora/common';
import { createProxy } from './proxy';
import { healthAggregate, routesHandler } from './aggregate';

export interface GatewayOptions {
  /** Service base URLs; defaults to SERVICE_URLS. */
  targets?: Partial<Record<ServiceName, string>>;
  logger?: Logger;
  port?: number;
  host?: string;
}

export interface GatewayApp {
  readonly name: 'gateway';
  readonly url: string | undefined;
  start(): Promise<RunningServer>;
  [Symbol.asyncDispose](): Promise<void>;
}

export function resolveTargets(config: Config, given?: Partial<Record<ServiceName, string>>): Record<ServiceName, string> {
  const merged = { ...parseServiceUrls(config.SERVICE_URLS), ...(given ?? {}) };
  const missing = SERVICE_NAMES.filter((n) => !merged[n]);
  if (missing.length) throw new Error(`SERVICE_URLS: no URL for ${missing.join(', ')}`);
  return merged as Record<ServiceName, string>;
}

export function buildGateway(config: Config, targets: Record<ServiceName, string>, logger: Logger) {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(requestId);
  app.get('/__routes', routesHandler(targets));
  app.get('/health', healthAggregate(targets, {}));
  const proxy = createProxy({ targets, logger });
  app.use(proxy.handler);
  app.use(errorMiddleware(logger));
  return { app, agent: proxy.agent };
}

export function createApp(config: Config, opts: GatewayOptions = {}): GatewayApp {
  const logger = opts.logger?.child({ service: 'gateway' }) ?? createLogger({ level: config.LOG_LEVEL, service: 'gateway', file: config.LOG_FILE });
  let server: RunningServer | undefined;
  let agent: { destroy(): void } | undefined;
  return {
    name: 'gateway',
    get url() {
      return server?.url;
    },
    async start() {
      const built = buildGateway(config, resolveTargets(config, opts.targets), logger);
      agent = built.agent;
      server = await listen(built.app, opts.port ?? config.PORT, opts.host ?? config.HOST);
      logger.info({ url: server.url }, 'gateway listening');
      return server;
    },
    async [Symbol.asyncDispose]() {
      await server?.close();
      agent?.destroy();
    },
  };
}
