/**
 * The one place streams are joined (issue 21, docs/security.md "Streams and process faults").
 * A stream that emits 'error' with no listener throws out of the event loop and stops the whole
 * process, and `.pipe()` attaches no listener to its destination: one client hanging up mid-upload
 * used to stop the server. Here stages are joined with `stream.pipeline` (which destroys every
 * stage when one fails and reports the first error once), and every stage also keeps an error
 * listener of its own for its whole life (`guard`): an error that arrives after the pipeline has
 * settled, or on a stage nobody reads any more, is then dropped instead of fatal. The first error
 * still reaches whoever awaits the pipeline or reads its last stage. ESLint refuses `.pipe(`,
 * `new Transform`/`PassThrough`/`Duplex`/`Readable`/`Writable` and `Readable.from` elsewhere.
 */
import { PassThrough, Readable, Transform, pipeline as pipelineCb } from 'node:stream';
import { pipeline } from 'node:stream/promises';

type Emitter = { on(event: 'error', fn: (err: unknown) => void): unknown };
type AnyStream = NodeJS.ReadableStream | NodeJS.WritableStream | NodeJS.ReadWriteStream;
/** A pipeline's first stage: a stream, or chunks (a web ReadableStream is async-iterable too). */
export type Source =
  AnyStream | Iterable<Buffer | Uint8Array | string> | AsyncIterable<Buffer | Uint8Array | string>;

const GUARDED = Symbol('agora.streams.guarded');
// The error is not lost: the pipeline (or the reader of the last stage) reports the first one.
const dropLateError = () => undefined;

/** Gives `stream` a permanent error listener (once); returns it. Non-emitters pass through. */
export function guard<T>(stream: T): T {
  const s = stream as unknown as Partial<Emitter> & { [GUARDED]?: true };
  if (typeof s?.on !== 'function' || s[GUARDED]) return stream;
  s.on('error', dropLateError);
  s[GUARDED] = true;
  return stream;
}

/**
 * Runs `source → ...stages` to the end with `stream.pipeline` (promises form); rejects with the
 * first error and destroys every stage on failure or abort. Use when the last stage is a sink
 * (a file, an HTTP response, a storage upload's input).
 */
export async function flow(
  stages: readonly [Source, ...AnyStream[]],
  opts: { signal?: AbortSignal } = {},
): Promise<void> {
  for (const s of stages) guard(s);
  await pipeline(stages as unknown as readonly AnyStream[], opts);
}

/**
 * `source → ...stages` joined with `stream.pipeline`, returning the last stage for someone else
 * to read (a storage upload, a parser). A failing stage destroys the others; the reader sees the
 * error on the stream it reads (async iteration, or its own `flow`).
 */
export function through(source: Source, ...stages: NodeJS.ReadWriteStream[]): Readable {
  const head = isStream(source) ? source : fromIterable(source);
  if (stages.length === 0) return guard(head) as Readable;
  for (const s of [head, ...stages]) guard(s);
  return pipelineCb([head, ...stages], dropLateError) as unknown as Readable;
}

/**
 * A transform that maps each chunk with `fn` (return undefined to drop it). A throw inside `fn`
 * or `flush` fails the stream (and so the pipeline and the request) instead of escaping from an
 * event callback, where it would be an uncaught exception.
 */
export function mapChunks(
  fn: (chunk: Buffer) => Buffer | undefined,
  flush?: () => Buffer | undefined,
): Transform {
  return guard(
    new Transform({
      transform(chunk: Buffer, _enc, cb) {
        let out: Buffer | undefined;
        try {
          out = fn(chunk);
        } catch (err) {
          return cb(err as Error);
        }
        cb(null, out);
      },
      flush(cb) {
        let out: Buffer | undefined;
        try {
          out = flush?.();
        } catch (err) {
          return cb(err as Error);
        }
        cb(null, out);
      },
    }),
  );
}

/** A guarded PassThrough: the hand-over point between a pipeline and a reader that takes a stream. */
export function passThrough(): PassThrough {
  return guard(new PassThrough());
}

/** A byte stream over chunks (an async generator's failure fails the stream, guarded). */
export function fromIterable(
  chunks: Iterable<Buffer | Uint8Array | string> | AsyncIterable<Buffer | Uint8Array | string>,
): Readable {
  return guard(Readable.from(chunks, { objectMode: false }));
}

/** What `feed` writes into: a Node Writable, or a streamx one (tar-stream's extract). */
export interface ChunkSink {
  write(chunk: Buffer): boolean;
  end(chunk?: unknown): unknown;
  destroy(err?: Error): unknown;
  once(event: 'drain' | 'close', fn: () => void): unknown;
  off(event: 'drain' | 'close', fn: () => void): unknown;
  readonly destroyed: boolean;
}

/**
 * Writes `source` into `sink` with backpressure and ends it; on a failure of either side the
 * sink is destroyed with the error and the promise rejects. For sinks `stream.pipeline` cannot
 * end correctly: it misreads the end of a streamx writable (tar-stream's extract) and reports a
 * premature close after a clean end.
 */
export async function feed(source: AsyncIterable<Buffer>, sink: ChunkSink): Promise<void> {
  guard(sink);
  try {
    for await (const chunk of source) {
      if (sink.destroyed) throw new Error('the reader stopped before the end of the stream');
      if (!sink.write(chunk)) await drained(sink);
    }
    sink.end();
  } catch (err) {
    sink.destroy(err as Error);
    throw err;
  }
}

function drained(sink: ChunkSink): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      sink.off('drain', onDrain);
      sink.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error('the reader stopped before the end of the stream'));
    sink.once('drain', onDrain);
    sink.once('close', onClose);
    if (sink.destroyed) onClose();
  });
}

/** The client hung up (a download cut off, an upload abandoned): nothing to answer, nothing broken. */
export function isClientGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return (
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ECONNABORTED'
  );
}

/**
 * Streams `body` as the response (headers already set). Resolves when sent or when the client
 * hung up midway (not an error of the server); rejects on a failure of `body` itself, which the
 * error middleware answers by cutting the connection (the status line is already out).
 */
export async function streamResponse(body: AnyStream, res: NodeJS.WritableStream): Promise<void> {
  try {
    await flow([body, res]);
  } catch (err) {
    if (isClientGone(err)) return;
    throw err;
  }
}

function isStream(s: Source): s is AnyStream {
  return typeof (s as Partial<Emitter>).on === 'function';
}
