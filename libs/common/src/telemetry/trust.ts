/**
 * The public edge does not continue a client's trace by default (TRACE_TRUST_INCOMING=false):
 * a `traceparent` from the Internet would let anyone pick trace ids (colliding with or joining
 * other traces) and force sampling past OTEL_TRACES_SAMPLE_RATIO. The gateway's server drops the
 * W3C trace headers before the HTTP instrumentation reads them, so each request starts a trace of
 * its own, which the gateway then carries to the services and the bus.
 */
import type { IncomingMessage, Server } from 'node:http';

const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'];

export function distrustTraceContext(server: Server): void {
  // The instrumentation wraps Server.prototype.emit; an own `emit` runs before it.
  const inherited = (Object.getPrototypeOf(server) as { emit: (...args: unknown[]) => boolean }).emit;
  server.emit = function (this: Server, ...args: unknown[]): boolean {
    if (args[0] === 'request') {
      const req = args[1] as IncomingMessage;
      for (const h of TRACE_HEADERS) delete req.headers[h];
    }
    return inherited.apply(this, args);
  } as Server['emit'];
}
