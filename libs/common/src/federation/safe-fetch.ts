/**
 * The one outbound HTTP client for every federation fetch (decisions.md §6): keys, actors, remote
 * objects, pulls and deliveries. Addresses are checked where the socket connects (see lookup.ts)
 * and, for IP-literal hosts that never reach a lookup, just before; redirects are followed by hand
 * so every hop is checked the same way; the body and the whole exchange have hard limits.
 * `allowPrivate` and `hostMap` exist for tests and local multi-instance setups, where peers are
 * fake domains served from 127.0.0.1.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { SafeFetchError } from './errors';
import { addressPolicy, ForbiddenAddressError, guardedLookup, type Resolver } from './lookup';

export interface SafeFetchOptions {
  /** Lift the address checks (config FEDERATION_ALLOW_PRIVATE). */
  allowPrivate?: boolean;
  /** Exact addresses allowed despite the checks (a known peer inside a private network). */
  allowIps?: string[];
  /** Domain (or domain:port) → `host:port` to connect to instead; the Host header keeps the domain. */
  hostMap?: Record<string, string>;
  /** Limit for the whole exchange, redirects and body included. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Stands in for DNS (tests); the system resolver otherwise. */
  resolver?: Resolver;
}

export interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface SafeFetchResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export type SafeFetch = (url: string, init?: SafeFetchInit) => Promise<SafeFetchResponse>;

interface Outgoing {
  method: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-length', 'digest'];

export function createSafeFetch(options: SafeFetchOptions = {}): SafeFetch & { close(): void } {
  const {
    allowPrivate = false,
    hostMap = {},
    timeoutMs = 10_000,
    maxBytes = 1024 * 1024,
    maxRedirects = 3,
    userAgent = 'Agora',
  } = options;
  const allowed = addressPolicy(allowPrivate, options.allowIps);
  const lookup = guardedLookup({ allowed, ...(options.resolver ? { resolver: options.resolver } : {}) });
  const agents = {
    http: new http.Agent({ keepAlive: true, lookup }),
    https: new https.Agent({ keepAlive: true, lookup }),
  };

  function send(url: URL, init: Outgoing, signal: AbortSignal) {
    const secure = url.protocol === 'https:';
    const mapped = hostMap[url.host] ?? hostMap[url.hostname];
    const target = new URL(`${url.protocol}//${mapped ?? url.host}`);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !allowed(host)) {
      throw new SafeFetchError('forbidden_address', new ForbiddenAddressError(url.hostname, host));
    }
    const servername = isIP(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : url.hostname;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = (secure ? https : http).request(
        {
          host,
          port: target.port || (secure ? 443 : 80),
          method: init.method,
          path: `${url.pathname}${url.search}`,
          headers: {
            'user-agent': userAgent,
            ...init.headers,
            host: url.host,
            ...(init.body === undefined ? {} : { 'content-length': Buffer.byteLength(init.body) }),
          },
          agent: secure ? agents.https : agents.http,
          signal,
          ...(secure && servername ? { servername } : {}),
        },
        resolve,
      );
      req.on('error', reject);
      req.end(init.body);
    });
  }

  async function safeFetch(url: string, init: SafeFetchInit = {}): Promise<SafeFetchResponse> {
    let current = httpUrl(url, 'invalid_url');
    const request: Outgoing = {
      method: (init.method ?? 'GET').toUpperCase(),
      headers: lowerCaseKeys(init.headers ?? {}),
      body: init.body,
    };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      for (let hop = 0; ; hop++) {
        const res = await send(current, request, controller.signal);
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (!REDIRECTS.has(status) || !location) {
          const body = await readBody(res, maxBytes, controller.signal);
          return { status, headers: res.headers, body, url: current.href };
        }
        res.destroy();
        if (hop >= maxRedirects) throw new SafeFetchError('too_many_redirects');
        const next = httpUrl(new URL(location, current).href, 'bad_redirect');
        const toGet =
          (status === 303 && request.method !== 'HEAD') ||
          ((status === 301 || status === 302) && request.method === 'POST');
        if (toGet) {
          request.method = 'GET';
          request.body = undefined;
          for (const h of BODY_HEADERS) delete request.headers[h];
        }
        if (next.origin !== current.origin) for (const h of CREDENTIALS) delete request.headers[h];
        current = next;
      }
    } catch (err) {
      throw asSafeFetchError(err, controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  return Object.assign(safeFetch, {
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}

function httpUrl(text: string, failure: 'invalid_url' | 'bad_redirect'): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch (err) {
    throw new SafeFetchError(failure, err);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SafeFetchError(failure);
  return url;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

async function readBody(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw new SafeFetchError('too_large');
  }
  const onAbort = () => res.destroy(new Error('aborted by the time limit'));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) {
        res.destroy();
        throw new SafeFetchError('too_large');
      }
      chunks.push(chunk);
    }
    if (signal.aborted) throw new SafeFetchError('timeout');
    return Buffer.concat(chunks);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function asSafeFetchError(err: unknown, signal: AbortSignal): SafeFetchError {
  if (err instanceof SafeFetchError) return err;
  if (signal.aborted) return new SafeFetchError('timeout', err);
  if (err instanceof ForbiddenAddressError || (err as { code?: unknown }).code === 'EFORBIDDENADDRESS') {
    return new SafeFetchError('forbidden_address', err);
  }
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'EAI_NODATA' || code === 'EAI_AGAIN')
    return new SafeFetchError('unresolvable', err);
  return new SafeFetchError('network', err);
}
