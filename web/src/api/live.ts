/**
 * The live stream (docs/api.md, "Live updates"; ADR 0020): one `GET /notifications/stream` per
 * tab, read with fetch because EventSource cannot send the bearer token. Its events are hints
 * (an id and where it belongs); the screens follow them with their ordinary queries. When the
 * stream fails the screens keep polling (`useLiveConnected` is false), and it is retried with a
 * growing delay; a 401 ends the session as any request does, a 429 waits longer.
 */
import { useSyncExternalStore } from 'react';
import { getToken, onTokenChange, setToken } from './session';
import { pathOf } from './routes';

export type LiveEvent =
  | { event: 'ready' }
  | { event: 'post'; circleId: string; postId: string }
  | { event: 'reply'; postId: string; replyId: string }
  | { event: 'notification'; type: string };

type Listener = (e: LiveEvent) => void;

const listeners = new Set<Listener>();
const stateListeners = new Set<() => void>();
let connected = false;
let abort: AbortController | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;

function setConnected(v: boolean): void {
  if (connected === v) return;
  connected = v;
  for (const l of stateListeners) l();
}

function dispatch(block: string): void {
  let event = '';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data += line.slice(6);
  }
  if (!event || !data) return;
  let parsed: Record<string, string>;
  try {
    parsed = JSON.parse(data) as Record<string, string>;
  } catch {
    return;
  }
  const e = { ...parsed, event } as LiveEvent;
  for (const l of listeners) l(e);
}

async function read(token: string, signal: AbortSignal): Promise<number> {
  const res = await fetch(pathOf('liveStream'), {
    headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
    signal,
    cache: 'no-store',
  });
  if (!res.ok || !res.body) return res.status;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return 200;
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (block.includes('event: ready')) {
        failures = 0;
        setConnected(true);
      }
      dispatch(block);
    }
  }
}

function schedule(ms: number): void {
  clearTimeout(timer);
  timer = setTimeout(connect, ms);
}

function connect(): void {
  abort?.abort();
  abort = null;
  clearTimeout(timer);
  const token = getToken();
  setConnected(false);
  if (!token || typeof TextDecoderStream === 'undefined') return;
  const mine = new AbortController();
  abort = mine;
  void read(token, mine.signal)
    .catch(() => 0)
    .then((status) => {
      if (abort !== mine) return; // replaced or stopped meanwhile
      setConnected(false);
      if (status === 401) return setToken(null);
      failures++;
      // 3 s, 6 s, 12 s… up to a minute (a 429: a minute at once), spread so replicas are not hit together.
      const base = status === 429 ? 60_000 : Math.min(60_000, 3000 * 2 ** Math.min(failures - 1, 5));
      schedule(base * (0.8 + Math.random() * 0.4));
    });
}

let started = false;

/** Starts the stream for the signed-in person, and again whenever the token changes. */
export function startLive(): void {
  if (started) return;
  started = true;
  onTokenChange(connect);
  // A tab coming back online reconnects at once instead of waiting out its delay.
  window.addEventListener('online', () => {
    if (!connected) connect();
  });
  connect();
}

/** Calls `fn` for every live event while mounted (use in an effect). */
export function onLive(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether the stream is up: polling can slow down while it is. */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    (fn) => {
      stateListeners.add(fn);
      return () => stateListeners.delete(fn);
    },
    () => connected,
  );
}
