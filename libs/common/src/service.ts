/**
 * The app object every service exposes (style.md §1): `start()` and `[Symbol.asyncDispose]()`.
 * `main.ts` files only load config, build the app, start it and dispose it on SIGTERM; tests
 * and standalone mode boot several apps in one process.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config';
import { createServiceHttpApp } from './http/service-app';
import { listen, type RunningServer } from './http/server';
import { createRuntime, type Runtime, type SharedDeps } from './runtime';
import type { Probe } from './http/health';
import { startOutboxRelay } from './messaging/outbox-relay';

/** A request handler an Express app satisfies; `next` is called only for what it passes on. */
export type RequestListener = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

export interface ServiceApp {
  readonly name: string;
  /** Set once started. */
  readonly url: string | undefined;
  readonly runtime: Runtime | undefined;
  /** The service's HTTP app once started: standalone's gateway calls it in process. */
  readonly handler: RequestListener | undefined;
  start(): Promise<RunningServer | undefined>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface ServiceDefinition<C> {
  name: string;
  /** Directory holding the route tree; omit for workers without HTTP routes. */
  routesDir?: string;
  buildContext(rt: Runtime): C | Promise<C>;
  /** Start-up work (bootstrap, consumers, workers); returns a disposer. */
  onStart?(rt: Runtime, ctx: C): Promise<(() => Promise<void>) | void>;
  /**
   * The service records activities with events (the `event_outbox`): it runs the outbox relay
   * that republishes what its writes could not publish, unless the process runs one for every
   * service (`shared.outboxRelay`, standalone).
   */
  outbox?: boolean;
  /**
   * The service keeps objects (files, archives) in object storage: its runtime makes sure the
   * bucket exists at start. Default true; false for services that never touch it.
   */
  keepsObjects?: boolean;
  extraProbes?(rt: Runtime): Record<string, Probe>;
  /**
   * Its `onStart` runs `Stores.prepare` (social's bootstrap: every collection and index at each
   * start, then the migrations). Every other service's start first awaits `Stores.ready`: no
   * consumer, worker or route of it touches the stores before the migrations are done (ADR 0032).
   */
  prepares?: boolean;
}

export function createService<C>(
  def: ServiceDefinition<C>,
  config: Config,
  opts: { shared?: SharedDeps; port?: number; host?: string } = {},
): ServiceApp {
  let rt: Runtime | undefined;
  let server: RunningServer | undefined;
  let handler: RequestListener | undefined;
  let stopWork: (() => Promise<void>) | void = undefined;
  let stopRelay: (() => Promise<void>) | undefined;
  return {
    name: def.name,
    get url() {
      return server?.url;
    },
    get runtime() {
      return rt;
    },
    get handler() {
      return handler;
    },
    async start() {
      rt = await createRuntime(def.name, config, opts.shared, { keepsObjects: def.keepsObjects !== false });
      // Not listening meanwhile, so not ready: the start probes wait (ADR 0032).
      if (!def.prepares) await rt.repos.ready();
      const ctx = await def.buildContext(rt);
      stopWork = await def.onStart?.(rt, ctx);
      if (def.outbox && opts.shared?.outboxRelay !== 'process')
        stopRelay = startOutboxRelay(
          { bus: rt.bus, stores: { activities: rt.repos.activities }, logger: rt.logger },
          { intervalMs: config.OUTBOX_RELAY_INTERVAL_MS, graceMs: config.OUTBOX_RELAY_GRACE_MS },
        );
      if (!def.routesDir) return undefined;
      const runtime = rt;
      const { app } = createServiceHttpApp({
        name: def.name,
        config,
        logger: rt.logger,
        repos: rt.repos,
        tokens: rt.tokens,
        federation: rt.federation,
        routesDir: def.routesDir,
        ctx,
        engine: runtime.db.engine.kind,
        probes: {
          mongodb: async () => ({ ok: await runtime.db.ping() }),
          bus: () => runtime.bus.health(),
          ...(def.extraProbes?.(runtime) ?? {}),
        },
      });
      handler = app;
      server = await listen(app, opts.port ?? config.PORT, opts.host ?? config.HOST);
      rt.logger.info({ url: server.url }, `${def.name} listening`);
      return server;
    },
    async [Symbol.asyncDispose]() {
      // Drain HTTP first (readiness 503, no new connections, in-flight requests finish), then
      // stop the relay and the consumers, then close the connections (runtime.close).
      await server?.close(config.SHUTDOWN_GRACE_SECONDS * 1000);
      await stopRelay?.();
      if (stopWork) await stopWork();
      await rt?.close();
    },
  };
}
