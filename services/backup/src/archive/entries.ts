/** Writing and reading tar entries as streams, with backpressure and a SHA-256 of what passed. */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { Pack } from 'tar-stream';
import { fromIterable, guard } from '@agora/common/streams';

export interface Digest {
  bytes: number;
  sha256: string;
}

/** Adds one entry of exactly `size` bytes; rejects on a short or long source (tar needs the size first). */
export function addEntry(
  pack: Pack,
  name: string,
  size: number,
  source: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer>,
  check: () => void,
): Promise<Digest> {
  return new Promise<Digest>((resolve, reject) => {
    const hash = createHash('sha256');
    let bytes = 0;
    // Guarded: a failed source destroys the entry with its error, reported through `reject`.
    const entry = guard(
      pack.entry({ name, size, type: 'file', mode: 0o644, mtime: new Date() }, (err) =>
        err ? reject(err) : resolve({ bytes, sha256: hash.digest('hex') }),
      ),
    );
    const feed = async () => {
      for await (const raw of source) {
        check();
        const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
        hash.update(chunk);
        bytes += chunk.length;
        if (!entry.write(chunk)) await once(entry, 'drain');
      }
      if (bytes !== size)
        throw new Error(`${name}: ${bytes} bytes read, ${size} expected (changed while archived)`);
      // A streamx stream: end() takes no callback (the pack's entry callback reports the end).
      (entry as unknown as { end(): void }).end();
    };
    feed().catch((err: Error) => {
      entry.destroy(err);
      reject(err);
    });
  });
}

/** Reads an entry to its end, hashing it; `onChunk` sees every chunk (to parse or store it). */
export async function digestEntry(
  entry: AsyncIterable<Buffer>,
  onChunk?: (chunk: Buffer) => void | Promise<void>,
): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of entry) {
    hash.update(chunk);
    bytes += chunk.length;
    // Awaited: a slow consumer (database inserts) slows the archive read instead of buffering.
    await onChunk?.(chunk);
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** The entry as a Node stream for a storage upload, hashed as it passes; `digest()` once it ended. */
export function hashedStream(entry: AsyncIterable<Buffer>): { stream: Readable; digest: () => Digest } {
  const hash = createHash('sha256');
  let bytes = 0;
  let sha256 = '';
  async function* pass() {
    for await (const chunk of entry) {
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
    sha256 = hash.digest('hex');
  }
  return { stream: fromIterable(pass()), digest: () => ({ bytes, sha256 }) };
}
