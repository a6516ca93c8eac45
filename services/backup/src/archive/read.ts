/** Reads a `.tar.gz` archive entry by entry as it streams (nothing is unpacked to disk). */
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';

/** The archive itself is bad (corrupt, truncated, tampered, foreign): retrying cannot help. */
export class ArchiveInvalid extends Error {
  override readonly name = 'ArchiveInvalid';
}

/** An entry's bytes: consume them (or let the next entry skip them). */
export type EntryBody = AsyncIterable<Buffer>;
export type EntryVisitor = (name: string, size: number, entry: EntryBody) => Promise<void>;

export async function forEachEntry(body: Readable, visit: EntryVisitor, check: () => void): Promise<void> {
  const extract = tar.extract();
  const gunzip = createGunzip();
  // pipe(), not pipeline(): Node's pipeline misreads the end of tar-stream's (streamx) writable
  // and can report a premature close after a clean end. Any error fails the extract instead,
  // which ends the iteration below with that error.
  let failure: unknown;
  const fail = (err: unknown) => {
    failure ??= err;
    extract.destroy(err as Error);
  };
  body.on('error', fail);
  gunzip.on('error', fail);
  body.pipe(gunzip).pipe(extract);
  try {
    for await (const entry of extract) {
      check();
      const { name, size = 0, type } = entry.header;
      if (type !== 'file') {
        entry.resume();
        throw new ArchiveInvalid(
          `unexpected ${type ?? 'unknown'} entry ${name} (only files belong in an archive)`,
        );
      }
      await visit(name, size, entry as unknown as EntryBody);
    }
    if (failure) throw failure as Error;
  } catch (err) {
    body.destroy();
    gunzip.destroy();
    extract.destroy();
    throw describe(failure ?? err);
  }
}

/** Turns zlib and tar errors into a reason an operator can act on. */
function describe(err: unknown): unknown {
  // Duck-typed: errors from Node's internals may come from another realm (test sandboxes).
  if (err instanceof ArchiveInvalid || typeof (err as Error | undefined)?.message !== 'string') return err;
  const e = err as Error & { code?: string };
  const code = e.code ?? '';
  if (code.startsWith('Z_') || /unexpected end of file|incorrect (data|header) check/i.test(e.message))
    return new ArchiveInvalid(`the archive is not a valid gzip stream (corrupt or truncated): ${e.message}`);
  if (/tar|header|checksum|size mismatch|unexpected end of data/i.test(e.message))
    return new ArchiveInvalid(`the archive is not a valid tar stream (corrupt or truncated): ${e.message}`);
  return err;
}
