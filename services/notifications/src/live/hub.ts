/**
 * The live streams this process holds (ADR 0020): Server-Sent Events, a few per user, each told
 * only hints (an id and where it belongs) that the client follows with the ordinary read routes.
 * Nothing is buffered for a client that is away: a stream opens with `ready`, after which the
 * client refetches what it shows, so a reconnect (Last-Event-ID or not) loses nothing it shows.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type LiveEvent = 'ready' | 'post' | 'reply' | 'notification';

interface Stream {
  res: ServerResponse;
}

export interface LiveHubOptions {
  /** Streams one user may hold on this process; 0 turns streaming off. */
  perUser: number;
  heartbeatMs: number;
}

/** How long a client waits before reconnecting after the stream ended (the SSE `retry` field). */
export const RECONNECT_MS = 3000;

export class LiveHub {
  private readonly byUser = new Map<string, Set<Stream>>();
  private timer: NodeJS.Timeout | undefined;
  private seq = 0;

  constructor(private readonly opts: LiveHubOptions) {}

  /** Users with at least one stream here. */
  users(): string[] {
    return [...this.byUser.keys()];
  }

  has(userId: string): boolean {
    return this.byUser.has(userId);
  }

  /** Starts a stream for `userId` on `res`; false (nothing written) when the user is at the limit. */
  open(userId: string, req: IncomingMessage, res: ServerResponse): boolean {
    const mine = this.byUser.get(userId) ?? new Set<Stream>();
    if (mine.size >= this.opts.perUser) return false;
    const stream: Stream = { res };
    mine.add(stream);
    this.byUser.set(userId, mine);
    const drop = () => this.drop(userId, stream);
    req.once('close', drop);
    res.once('close', drop);
    // A socket error (the client went away mid-write) must not become an uncaught one.
    res.on('error', drop);
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-transform: no proxy or compressor may hold the stream back; no-store: never cached.
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RECONNECT_MS}\n`);
    this.write(stream, 'ready', {});
    this.ensureHeartbeat();
    return true;
  }

  /** A hint to every stream of `userId` on this process. */
  send(userId: string, event: LiveEvent, data: Record<string, string>): void {
    for (const stream of this.byUser.get(userId) ?? []) this.write(stream, event, data);
  }

  /** Ends every stream (the client reconnects, to another replica if this one is going). */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const [userId, streams] of this.byUser)
      for (const stream of streams) {
        this.drop(userId, stream);
        stream.res.end();
      }
  }

  private write(stream: Stream, event: LiveEvent, data: Record<string, string>): void {
    if (stream.res.writableEnded) return;
    stream.res.write(`id: ${++this.seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private drop(userId: string, stream: Stream): void {
    const mine = this.byUser.get(userId);
    if (!mine?.delete(stream)) return;
    if (!mine.size) this.byUser.delete(userId);
    if (!this.byUser.size) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** A comment line now and then keeps every hop (gateway proxy, balancers) from timing out. */
  private ensureHeartbeat(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      for (const streams of this.byUser.values())
        for (const { res } of streams) if (!res.writableEnded) res.write(': heartbeat\n\n');
    }, this.opts.heartbeatMs);
    this.timer.unref();
  }
}
