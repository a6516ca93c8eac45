/**
 * Proxy to the domain services through keep-alive agents (a proxy without them loses most of
 * its throughput: field-notes.md). Unknown hop-by-hop headers are dropped by http-proxy; internal
 * identity headers sent by clients are stripped before forwarding.
 */
import http from 'node:http';
import type { RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from '@agora/common/logger';
import { serviceFor, type ServiceName } from '@agora/common/routing';

export const INTERNAL_HEADER_PREFIX = 'x-agora-';

export interface ProxyOptions {
  targets: Record<ServiceName, string>;
  logger: Logger;
  timeoutMs?: number;
}

export function createProxy({ targets, logger, timeoutMs = 30_000 }: ProxyOptions): {
  handler: RequestHandler;
  agent: http.Agent;
} {
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: 256,
    maxFreeSockets: 64,
    keepAliveMsecs: 10_000,
  });
  const handler = createProxyMiddleware({
    router: (req) => targets[serviceFor((req.url ?? '/').split('?')[0]!)],
    target: targets.social,
    changeOrigin: false,
    xfwd: true,
    agent,
    proxyTimeout: timeoutMs,
    on: {
      proxyReq: (proxyReq, req) => {
        for (const name of proxyReq.getHeaderNames())
          if (name.startsWith(INTERNAL_HEADER_PREFIX)) proxyReq.removeHeader(name);
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
        const timedOut =
          (code === 'ECONNRESET' && /timeout/i.test(err.message)) ||
          code === 'ETIMEDOUT' ||
          code === 'ESOCKETTIMEDOUT';
        logger.warn({ err: err.message, code, url: req.url }, 'proxy error');
        const out = res as http.ServerResponse;
        if (!('writeHead' in out) || out.headersSent) {
          (out as unknown as { destroy?: () => void }).destroy?.();
          return;
        }
        out.writeHead(timedOut ? 504 : 502, { 'content-type': 'application/json; charset=utf-8' });
        out.end(
          JSON.stringify({ error: timedOut ? 'Upstream service timed out' : 'Upstream service unavailable' }),
        );
      },
    },
  });
  return { handler, agent };
}
