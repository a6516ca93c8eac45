import type { Readable } from 'node:stream';
import type { PutBody } from './types';

export function isStreamBody(body: PutBody): body is NodeJS.ReadableStream | Readable {
  return typeof body !== 'string' && !Buffer.isBuffer(body);
}

export function asBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('Object body streams must yield Buffers, Uint8Arrays or strings');
}

/**
 * Cuts a stream into parts of exactly `partSize` bytes (the last one shorter, possibly none if
 * the length is a multiple). At most one part plus one incoming chunk is held at a time.
 * Ending the iteration early (`return()`) destroys the source stream.
 */
export async function* readParts(
  stream: NodeJS.ReadableStream | Readable,
  partSize: number,
): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const raw of stream) {
    const chunk = asBuffer(raw);
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes < partSize) continue;
    let joined = Buffer.concat(pending, pendingBytes);
    while (joined.length >= partSize) {
      yield joined.subarray(0, partSize);
      joined = joined.subarray(partSize);
    }
    pending = joined.length ? [joined] : [];
    pendingBytes = joined.length;
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/** A failed put must not leave the caller's stream (often an HTTP request) half-read and open. */
export function releaseBody(body: PutBody): void {
  if (!isStreamBody(body)) return;
  const s = body as Partial<Readable>;
  if (typeof s.destroy === 'function' && !s.destroyed) s.destroy();
}
