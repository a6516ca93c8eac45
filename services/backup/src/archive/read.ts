/** Reads a `.tar.gz` archive entry by entry as it streams (nothing is unpacked to disk). */
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { feed, guard, through } from '@agora/common/streams';

/** The archive itself is bad (corrupt, truncated, tampered, foreign): retrying cannot help. */
export class ArchiveInvalid extends Error {
  override readonly name = 'ArchiveInvalid';
}

/** An entry's bytes: consume them (or let the next entry skip them). */
export type EntryBody = AsyncIterable<Buffer>;
export type EntryVisitor = (name: string, size: number, entry: EntryBody) => Promise<void>;

export async function forEachEntry(body: Readable, visit: EntryVisitor, check: () => void): Promise<void> {
  const extract = guard(tar.extract());
  // A pipeline up to gunzip; the extract is fed by hand (`feed`), because Node's pipeline
  // misreads the end of tar-stream's (streamx) writable and can report a premature close after a
  // clean end. Any failure of the file, gunzip or the feed destroys the extract with that error,
  // which ends the iteration below with it.
  const unzipped = through(body, createGunzip());
  let failure: unknown;
  const feeding = feed(unzipped, extract).catch((err: unknown) => {
    failure ??= err;
  });
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
      await visit(name, size, guard(entry) as unknown as EntryBody);
    }
    await feeding;
    if (failure) throw failure as Error;
  } catch (err) {
    // The first failure says why; tearing the streams down makes the feed fail too.
    const cause = failure ?? err;
    unzipped.destroy();
    extract.destroy();
    await feeding;
    throw describe(cause);
  }
}

/** Turns zlib and tar errors into a reason an operator can act on. */
function describe(err: unknown): unknown {
  // Duck-typed: errors from Node's internals may come from another realm (test sandboxes).
  if (err instanceof ArchiveInvalid || typeof (err as Error | undefined)?.message !== 'string') return err;
  const e = err as Error & { code?: unknown };
  // A database error's code is a number (a failed insert while staging): not an archive fault.
  const code = typeof e.code === 'string' ? e.code : '';
  if (code.startsWith('Z_') || /unexpected end of file|incorrect (data|header) check/i.test(e.message))
    return new ArchiveInvalid(`the archive is not a valid gzip stream (corrupt or truncated): ${e.message}`);
  if (/tar|header|checksum|size mismatch|unexpected end of data/i.test(e.message))
    return new ArchiveInvalid(`the archive is not a valid tar stream (corrupt or truncated): ${e.message}`);
  return err;
}
