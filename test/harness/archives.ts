/** Hand-made backup archives (gzip'd tars) for the tests of bad and hostile restores. */
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';

export interface ArchiveEntry {
  name: string;
  data: Buffer;
}

/** A gzip'd tar of `entries`, in order; `open`, if given, is a last entry cut off after its bytes. */
export async function tarGz(
  entries: Iterable<ArchiveEntry>,
  open?: { name: string; declared: number; data: Buffer },
): Promise<Buffer> {
  const pack = tar.pack();
  const gzip = createGzip();
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const gzipped = new Promise<void>((resolve, reject) => {
    gzip.on('end', resolve);
    gzip.on('error', reject);
  });
  pack.on('data', (c) => {
    if (!gzip.write(c)) pack.pause();
  });
  gzip.on('drain', () => pack.resume());
  const packed = new Promise<void>((resolve) => pack.on('end', resolve));
  for (const e of entries) {
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: e.name, size: e.data.length }, e.data, (err) => (err ? reject(err) : resolve())),
    );
  }
  if (open) {
    // The header promises `declared` bytes; the archive ends after `data`, inside the entry.
    const entry = pack.entry({ name: open.name, size: open.declared });
    entry.write(open.data);
    await new Promise((r) => setTimeout(r, 50));
    gzip.end();
  } else {
    pack.finalize();
    await packed;
    gzip.end();
  }
  await gzipped;
  return Buffer.concat(out);
}
