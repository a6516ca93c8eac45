/**
 * Which auto-instrumentations record spans. Off for good: fs, dns and net (noise for a
 * request/response service), amqplib (the bus propagates trace context itself, messaging/codec.ts)
 * and pino (the logger writes the trace id itself, logger/index.ts). Off unless TRACE_VERBOSE:
 * Express layer spans (one per middleware; the route still names the HTTP span) and Redis
 * commands (rate limits and stamps issue several per request). Never traced: probes and scrapes.
 */
import type { IncomingMessage, RequestOptions } from 'node:http';
import type { getNodeAutoInstrumentations as All } from '@opentelemetry/auto-instrumentations-node';

const QUIET_PATHS = new Set(['/health', '/metrics']);

const quietPath = (path: string | undefined | null): boolean =>
  QUIET_PATHS.has((path ?? '/').split('?')[0] ?? '/');

export async function instrumentations(verbose: boolean): Promise<ReturnType<typeof All>> {
  const { getNodeAutoInstrumentations } = await import('@opentelemetry/auto-instrumentations-node');
  return getNodeAutoInstrumentations({
    '@opentelemetry/instrumentation-fs': { enabled: false },
    '@opentelemetry/instrumentation-dns': { enabled: false },
    '@opentelemetry/instrumentation-net': { enabled: false },
    '@opentelemetry/instrumentation-amqplib': { enabled: false },
    '@opentelemetry/instrumentation-pino': { enabled: false },
    '@opentelemetry/instrumentation-redis': { enabled: verbose },
    '@opentelemetry/instrumentation-ioredis': { enabled: verbose },
    // Express 5 routes through the `router` package, which has an instrumentation of its own.
    '@opentelemetry/instrumentation-router': { enabled: verbose },
    '@opentelemetry/instrumentation-express': verbose
      ? {}
      : { ignoreLayersType: ['middleware', 'request_handler', 'router'] as never },
    '@opentelemetry/instrumentation-http': {
      ignoreIncomingRequestHook: (req: IncomingMessage) => quietPath(req.url),
      ignoreOutgoingRequestHook: (opts: RequestOptions) => quietPath(opts.path),
    },
  });
}
