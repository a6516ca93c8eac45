/**
 * Proxy to the domain services through keep-alive agents (a proxy without them loses most of
 * its throughput: field-notes.md). Unknown hop-by-hop headers are dropped by http-proxy; internal
 * identity headers sent by clients, and `Expect` (the edge answered it), are stripped before
 * forwarding.
 *
 * The upstream timeout (`timeoutMs`, UPSTREAM_TIMEOUT_SECONDS) is an idle timeout on the
 * connection to the service: it runs while no byte passes either way, so a slow upload or download
 * that keeps moving and a live stream with its heartbeat go on; a service silent that long gets a
 * 504 `{ error: 'Upstream service timed out' }` answered for it, or its started answer cut. The
 * standalone's in-process hand-off has the same timer (upstream-timeout.ts).
 *
 * Each service may have several replicas (SERVICE_URLS): the proxy's `router` picks one per
 * request from the service's pool (balance.ts: round-robin, skipping replicas whose connection
 * failed a moment ago), and the `error` hook sends a request whose connection failed before any
 * answer to another replica when that is harmless (retry.ts); otherwise it answers 502 (504 on
 * a timeout).
 */
import http from 'node:http';
import type { RequestHandler } from 'express';
import { createProxyMiddleware, proxyEventsPlugin } from 'http-proxy-middleware';
import type { Logger } from '@agora/common/logger';
import { serviceFor, type ServiceName } from '@agora/common/routing';
import { replicaPool, type ReplicaPool } from './balance';
import { proxySafetyPlugin } from './proxy-safety';
import { connectionFailed, retryable } from './retry';
import { TIMED_OUT } from './upstream-timeout';

export const INTERNAL_HEADER_PREFIX = 'x-agora-';

/**
 * A client header the gateway passes on to a service: not an internal one, nor `Expect`. The
 * edge's server answered `100 Continue` already; forwarded, the header made the proxy library skip
 * its `proxyReq` hook (`proxyReq` below: no internal headers stripped, no request id, no buffered
 * body sent, a timeout answered 502 instead of 504).
 */
export function forwardable(name: string): boolean {
  return !name.startsWith(INTERNAL_HEADER_PREFIX) && name !== 'expect';
}

export interface ProxyOptions {
  /** Every service's replicas (one URL or several). */
  targets: Record<ServiceName, readonly string[]>;
  logger: Logger;
  timeoutMs?: number;
  /** How long a replica whose connection failed is skipped (balance.ts). */
  downMs?: number;
}

/** One request's trip through the proxy: the replicas tried so far and the one in use. */
interface Attempt {
  service: ServiceName;
  tried: Set<string>;
  target?: string;
  timedOut: boolean;
  next: (err?: unknown) => void;
}

export function createProxy({ targets, logger, timeoutMs = 30_000, downMs }: ProxyOptions): {
  handler: RequestHandler;
  agent: http.Agent;
  pools: Record<ServiceName, ReplicaPool>;
} {
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: 256,
    maxFreeSockets: 64,
    keepAliveMsecs: 10_000,
  });
  const pools = Object.fromEntries(
    Object.entries(targets).map(([name, urls]) => [name, replicaPool(urls, { downMs })]),
  ) as Record<ServiceName, ReplicaPool>;
  const attempts = new WeakMap<http.IncomingMessage, Attempt>();

  const proxy = createProxyMiddleware({
    router: (req) => {
      const attempt = attempts.get(req)!;
      const url = pools[attempt.service].pick(attempt.tried)!;
      attempt.tried.add(url);
      attempt.target = url;
      return url;
    },
    target: targets.social[0],
    changeOrigin: false,
    xfwd: true,
    agent,
    proxyTimeout: timeoutMs,
    ejectPlugins: true,
    plugins: [proxyEventsPlugin, proxySafetyPlugin],
    on: {
      proxyReq: (proxyReq, req) => {
        proxyReq.once('timeout', () => {
          const attempt = attempts.get(req);
          if (attempt) attempt.timedOut = true;
        });
        for (const name of proxyReq.getHeaderNames()) if (!forwardable(name)) proxyReq.removeHeader(name);
        const rid = (req as { requestId?: string }).requestId;
        if (rid) proxyReq.setHeader('x-request-id', rid);
        const raw = (req as { rawBody?: Buffer }).rawBody;
        if (raw) {
          proxyReq.setHeader('content-length', raw.length);
          proxyReq.removeHeader('transfer-encoding');
          proxyReq.write(raw);
        }
      },
      error: (err, req, res) => {
        const code = (err as NodeJS.ErrnoException).code;
        const attempt = attempts.get(req);
        const timedOut =
          attempt?.timedOut === true ||
          (code === 'ECONNRESET' && /timeout/i.test(err.message)) ||
          code === 'ETIMEDOUT' ||
          code === 'ESOCKETTIMEDOUT';
        const out = res as http.ServerResponse;
        const answerable = 'writeHead' in out && !out.headersSent;
        if (attempt?.target && !timedOut && connectionFailed(err)) {
          const pool = pools[attempt.service];
          pool.markDown(attempt.target);
          const another = pool.urls.some((u) => !attempt.tried.has(u));
          if (answerable && another && retryable(req, err)) {
            logger.info(
              { code, url: req.url, replica: attempt.target },
              'proxy: retrying on another replica',
            );
            void proxy(req, out, attempt.next);
            return;
          }
        }
        logger.warn({ err: err.message, code, url: req.url, replica: attempt?.target }, 'proxy error');
        if (!answerable) {
          (out as unknown as { destroy?: () => void }).destroy?.();
          return;
        }
        out.writeHead(timedOut ? TIMED_OUT.status : 502, {
          'content-type': 'application/json; charset=utf-8',
        });
        out.end(JSON.stringify({ error: timedOut ? TIMED_OUT.error : 'Upstream service unavailable' }));
      },
    },
  });

  const handler: RequestHandler = (req, res, next) => {
    delete req.headers.expect;
    attempts.set(req, {
      service: serviceFor((req.url ?? '/').split('?')[0]!),
      tried: new Set(),
      timedOut: false,
      next,
    });
    void proxy(req, res, next);
  };
  return { handler, agent, pools };
}
