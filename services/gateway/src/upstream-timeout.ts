/**
 * The in-process counterpart of the proxy's upstream timeout (proxy.ts, `UPSTREAM_TIMEOUT_SECONDS`).
 * The proxy's timeout is an idle timeout on its connection to the service: it runs while no byte
 * passes either way, so a request body still arriving (a slow upload) or an answer still flowing
 * (a download, a live stream's heartbeat) keeps it from firing. When it fires before the service
 * answered, the proxy answers 504 `{ error: 'Upstream service timed out' }`; after, it cuts the
 * connection. Here the same idle timer runs from the hand-off, is reset by each chunk of a
 * streamed request body reaching the request the service reads and by each write the service makes
 * on the response, and stops once the service ends its answer. When it fires, the edge answers
 * (or cuts) as the proxy does, and logs it; the 504 is counted by the edge's HTTP metrics as the
 * proxy's is. From then on the service's hold on the response is cut: whatever it writes, sets or
 * ends later is dropped (no write after end, no "headers already sent" throw, nothing reaches a
 * connection that may be serving the client's next request), and whatever it passes on with
 * `next` stops here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@agora/common/logger';

export const TIMED_OUT = { status: 504, error: 'Upstream service timed out' } as const;

/** Response methods a service may call; after the timeout each does nothing. */
const GUARDED = [
  'writeHead',
  'write',
  'end',
  'flushHeaders',
  'setHeader',
  'setHeaders',
  'appendHeader',
  'removeHeader',
  'addTrailers',
  'writeContinue',
  'writeProcessing',
  'writeEarlyHints',
  'cork',
  'uncork',
  'setTimeout',
  'destroy',
] as const;
/** Of those, the ones that are the service answering: each one resets the timer. */
const PROGRESS = new Set<string>(['writeHead', 'write', 'end', 'flushHeaders']);

type Method = (...args: unknown[]) => unknown;

export interface UpstreamWatch {
  /** The timer fired: the edge answered or cut the request, and the service's hold on it is cut. */
  readonly timedOut: boolean;
}

export interface WatchOptions {
  timeoutMs: number;
  logger: Logger;
  /** What the log line names (the service and the URL). */
  context: Record<string, unknown>;
  /** The request whose body streams from the client (undefined: the body is all here already). */
  streamed?: IncomingMessage;
}

/** What a dropped call returns: `this` for the chainable ones, true for `write` (no backpressure). */
function dropped(res: ServerResponse, name: string, args: unknown[]): unknown {
  const callback = args.findLast((a) => typeof a === 'function') as (() => void) | undefined;
  if ((name === 'write' || name === 'end') && callback) process.nextTick(callback);
  if (name === 'write') return true;
  if (name === 'setTimeout' || name === 'cork' || name === 'uncork' || name === 'removeHeader')
    return undefined;
  return res;
}

/** Starts the idle timer on `res` (see the top of this file). */
export function watchUpstream(res: ServerResponse, opts: WatchOptions): UpstreamWatch {
  const edgeHeaders = res.getHeaders();
  const original = new Map<string, Method>();
  /** `edge`: the edge is writing its 504, through hooks (compression's) that call the guarded methods. */
  let state: 'running' | 'answered' | 'edge' | 'timedOut' = 'running';
  const call = (name: string, ...args: unknown[]) => original.get(name)!.apply(res, args);

  const target = res as unknown as Record<string, Method>;
  /** Guards `names` on this response: from the timeout on, each call is dropped. */
  const guard = (names: readonly string[]) => {
    for (const name of names) {
      const fn = target[name];
      if (typeof fn !== 'function' || original.has(name)) continue;
      original.set(name, fn);
      const progress = PROGRESS.has(name);
      target[name] = function guarded(this: unknown, ...args: unknown[]) {
        if (state === 'timedOut') return dropped(res, name, args);
        if (progress) touch();
        const out = fn.apply(res, args);
        if (name === 'end') stop();
        return out;
      };
    }
  };

  const fire = () => {
    if (state !== 'running' || res.writableEnded) return;
    guard(GUARDED);
    state = 'edge';
    opts.logger.warn(
      { ...opts.context, timeoutMs: opts.timeoutMs, answering: res.headersSent },
      'in-process service timed out',
    );
    if (res.headersSent) {
      state = 'timedOut';
      call('destroy');
      return;
    }
    // The edge's headers only (security headers, CORS, request id): none the service had set.
    for (const name of res.getHeaderNames()) if (!(name in edgeHeaders)) call('removeHeader', name);
    for (const [name, value] of Object.entries(edgeHeaders))
      if (value !== undefined) call('setHeader', name, value);
    call('writeHead', TIMED_OUT.status, 'Gateway Timeout', {
      'content-type': 'application/json; charset=utf-8',
    });
    call('end', JSON.stringify({ error: TIMED_OUT.error }));
    state = 'timedOut';
    // The edge's metrics read the status when the answer is out: a late `res.status()` must not change it.
    Object.defineProperty(res, 'statusCode', {
      get: () => TIMED_OUT.status,
      set: () => undefined,
      configurable: true,
    });
  };
  const timer = setTimeout(fire, opts.timeoutMs);
  const touch = () => {
    if (state === 'running') timer.refresh();
  };
  const stop = () => {
    if (state === 'running') state = 'answered';
    clearTimeout(timer);
  };

  // Until the timer fires only the answer's progress is watched: every own method set on the
  // response makes each later property read on it slower (a fifth of a trivial route's throughput
  // with all of them, docs/performance.md), so the others are guarded when it fires.
  guard([...PROGRESS]);
  res.once('close', stop);

  const body = opts.streamed;
  if (body) {
    const push = body.push.bind(body);
    body.push = (chunk: unknown, encoding?: BufferEncoding) => {
      if (chunk !== null) touch();
      return push(chunk, encoding);
    };
  }
  return {
    get timedOut() {
      return state === 'timedOut';
    },
  };
}
