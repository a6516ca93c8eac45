/**
 * The gateway's hand-off to a service whose app runs in the same process (standalone): the
 * request goes to the service's Express app as a function call instead of over a loopback HTTP
 * connection, which cost the process a second parse and serialisation of every request and
 * response. The service gets what the proxy (proxy.ts) would have sent it: the canonical path,
 * the edge's request id, `X-Forwarded-*` set as the proxy's `xfwd` sets them (kept when the
 * client sent them), no client-sent internal (`x-agora-`) header nor `Expect`, and the body: a
 * body the edge buffered (`rawBody`, body-limit.ts) is replayed on a fresh request the service's
 * own parsers read, anything else streams from the client's request untouched. The service
 * answers on the edge's response, so compression, security headers and the edge's hooks on it
 * (de-duplication's release, metrics) apply as before. The proxy's upstream timeout has its
 * counterpart (upstream-timeout.ts, ADR 0034): the same idle timer (`UPSTREAM_TIMEOUT_SECONDS`),
 * reset by the streamed body and the service's writes; when it fires the edge answers the same
 * 504 `{ error }` (or cuts a started answer) and the service's later writes go nowhere. Only the
 * proxy's retry on another replica has none: there is one replica.
 */
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '@agora/common/logger';
import { serviceFor, type ServiceName } from '@agora/common/routing';
import { forwardable } from './proxy';
import { watchUpstream } from './upstream-timeout';

/** A service's request handler (an Express app is one). */
export type LocalService = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

function forwardedHeaders(req: Request): IncomingMessage['headers'] {
  const headers: IncomingMessage['headers'] = {};
  for (const [name, value] of Object.entries(req.headers)) if (forwardable(name)) headers[name] = value;
  const rid = req.requestId;
  if (rid) headers['x-request-id'] = rid;
  const encrypted = 'encrypted' in req.socket && req.socket.encrypted === true;
  const host = headers.host ?? '';
  headers['x-forwarded-for'] ??= req.socket.remoteAddress;
  headers['x-forwarded-port'] ??= /:(\d+)$/.exec(host)?.[1] ?? (encrypted ? '443' : '80');
  headers['x-forwarded-proto'] ??= encrypted ? 'https' : 'http';
  headers['x-forwarded-host'] ||= host;
  return headers;
}

/** A request carrying the buffered body, for the service's own body parsers to read. */
function replay(
  req: Request,
  res: ServerResponse,
  headers: IncomingMessage['headers'],
  body: Buffer,
): IncomingMessage {
  const sub = new IncomingMessage(req.socket);
  sub.method = req.method;
  sub.url = req.url;
  sub.httpVersionMajor = req.httpVersionMajor;
  sub.httpVersionMinor = req.httpVersionMinor;
  sub.httpVersion = req.httpVersion;
  delete headers['transfer-encoding'];
  headers['content-length'] = String(body.length);
  sub.headers = headers;
  sub.rawHeaders = Object.entries(headers).flatMap(([k, v]) =>
    (Array.isArray(v) ? v : [v ?? '']).flatMap((one) => [k, one]),
  );
  sub.complete = true;
  // Every byte is here already: nothing to ask the socket for.
  sub._read = () => undefined;
  if (body.length) sub.push(body);
  sub.push(null);
  // Once the response is over, a body the service never read is drained (the request closes).
  // Not on the client request's 'close': that one comes as soon as the edge has read the body.
  res.once('close', () => sub.resume());
  return sub;
}

export interface InProcessOptions {
  /** The proxy's upstream timeout (UPSTREAM_TIMEOUT_SECONDS), in ms. */
  timeoutMs: number;
  logger: Logger;
}

/**
 * Requests for a service in `local` go to its app in this process; the others to `proxy`.
 * The Express prototypes and `res.req` are the edge's again if the service passes the request on
 * (unless it timed out meanwhile: the edge has answered, nothing goes further).
 */
export function inProcess(
  local: Partial<Record<ServiceName, LocalService>>,
  proxy: RequestHandler,
  { timeoutMs, logger }: InProcessOptions,
): RequestHandler {
  return (req, res, next) => {
    const name = serviceFor(req.path);
    const service = local[name];
    if (!service) return proxy(req, res, next);
    const headers = forwardedHeaders(req);
    const raw = (req as { rawBody?: unknown }).rawBody;
    let target: IncomingMessage;
    if (Buffer.isBuffer(raw)) target = replay(req, res, headers, raw);
    else {
      req.headers = headers;
      req.originalUrl = req.url;
      target = req;
    }
    const reqProto = Object.getPrototypeOf(req) as object;
    const resProto = Object.getPrototypeOf(res) as object;
    const context = { service: name, url: req.url, requestId: req.requestId };
    const watch = watchUpstream(res, {
      timeoutMs,
      logger,
      context,
      ...(target === req ? { streamed: req } : {}),
    });
    service(target, res, (err?: unknown) => {
      if (watch.timedOut) {
        if (err) logger.info({ ...context, err }, 'in-process service failed after its timeout');
        return;
      }
      Object.setPrototypeOf(req, reqProto);
      Object.setPrototypeOf(res, resProto);
      res.req = req;
      next(err);
    });
  };
}
