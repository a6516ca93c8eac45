/**
 * A test client of the live stream (GET /notifications/stream, ADR 0020): opens it with fetch
 * (the bearer token in a header, as the web app does), parses Server-Sent Events as they come,
 * and lets a test wait for an event.
 */
export interface SseEvent {
  event: string;
  id?: string;
  data: Record<string, string>;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Every event so far, in order. */
  events: SseEvent[];
  /** Comment lines (heartbeats) so far. */
  comments: number;
  /** The body of a refused request (not 200). */
  refusal?: { error?: string };
  /** The stream has ended (the server closed it). */
  ended: Promise<void>;
  /** Waits for an event matching `match` (any seen already counts). */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number, what?: string): Promise<SseEvent>;
  close(): void;
}

function parseBlock(block: string, stream: SseStream): void {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) stream.comments++;
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length)
    stream.events.push({
      event,
      ...(id ? { id } : {}),
      data: JSON.parse(data.join('\n')) as Record<string, string>,
    });
}

export async function openStream(
  baseUrl: string,
  token?: string,
  path = '/notifications/stream',
): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}${path}`, {
    headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: abort.signal,
  });
  const waiters = new Set<() => void>();
  let endedResolve!: () => void;
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    events: [],
    comments: 0,
    ended: new Promise<void>((r) => (endedResolve = r)),
    next(match, timeoutMs = 10_000, what = 'an event') {
      return new Promise<SseEvent>((resolve, reject) => {
        const check = () => {
          const found = stream.events.find(match);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(found);
          return true;
        };
        const waiter = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`${what}: not within ${timeoutMs} ms; got ${JSON.stringify(stream.events)}`));
        }, timeoutMs);
        if (!check()) waiters.add(waiter);
      });
    },
    close: () => abort.abort(),
  };
  if (res.status !== 200 || !res.body) {
    stream.refusal = (await res.json().catch(() => ({}))) as { error?: string };
    endedResolve();
    return stream;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          parseBlock(buffer.slice(0, cut), stream);
          buffer = buffer.slice(cut + 2);
        }
        for (const w of [...waiters]) w();
      }
    } catch {
      // aborted by close(), or the connection was cut: the stream has ended either way
    }
    endedResolve();
  })();
  return stream;
}
