/**
 * Restore, second pass: reads the verified archive again, writes every collection under a
 * staging name (created with its collection's declared indexes, then the documents as archived,
 * so data that breaks a unique index fails here, before anything is swapped) and writes every
 * object to its key. The checksums are computed again on the way (both passes read the same local copy, so a
 * mismatch means the disk corrupted it) and stop the restore before the swap.
 */
import { loadEJSON, STAGING_PREFIX, type EJSON, type RawDocument } from '@agora/common/db';
import type { BackupContext } from '../context';
import type { JobLease } from '../lease';
import { digestEntry, hashedStream } from '../archive/entries';
import { decodeDocument } from '../archive/codec';
import { ArchiveInvalid, forEachEntry } from '../archive/read';
import {
  DB_DIR,
  FILES_DIR,
  type CollectionEntry,
  type Manifest,
  type ObjectEntry,
} from '../archive/manifest';
import { counting, type LocalArchive } from './verify';

const BATCH_DOCS = 500;
const BATCH_BYTES = 4 * 1024 * 1024;

export interface Staged {
  /** archived name → staging name */
  collections: Map<string, string>;
  objectsWritten: number;
}

export const stagingName = (tag: string, name: string) => `${STAGING_PREFIX}${tag}_${name}`;

export async function stageArchive(
  ctx: BackupContext,
  lease: JobLease,
  archive: LocalArchive,
  manifest: Manifest,
  tag: string,
  onObjectWritten: (n: number) => void,
): Promise<Staged> {
  const byFile = new Map<string, CollectionEntry>(manifest.collections.map((c) => [c.file, c]));
  const objects = new Map<string, ObjectEntry>(manifest.objects.map((o) => [o.file, o]));
  const staged: Staged = { collections: new Map(), objectsWritten: 0 };
  const counts = { collections: 0, documents: 0, objects: 0 };
  const input = counting(archive.open(), (n) =>
    lease.progress({
      stage: counts.objects || staged.collections.size === byFile.size ? 'objects' : 'collections',
      pct: 45 + (40 * n) / Math.max(1, archive.size),
      counts,
    }),
  );
  await forEachEntry(
    input,
    async (name, _size, entry) => {
      if (name.startsWith(DB_DIR)) {
        const c = byFile.get(name)!;
        const target = stagingName(tag, c.name);
        staged.collections.set(c.name, target);
        await stageCollection(ctx, lease, c, manifest.version, target, entry, () => counts.documents++);
        counts.collections++;
        return;
      }
      if (name.startsWith(FILES_DIR)) {
        // Objects are written in place, so every collection must be staged (and checked) first.
        if (staged.collections.size !== byFile.size)
          throw new ArchiveInvalid('objects come before collections in the archive; refusing to write them');
        const o = objects.get(name)!;
        const hashed = hashedStream(entry);
        await ctx.storage.put(o.key, hashed.stream, {
          contentLength: o.size,
          ...(o.contentType ? { contentType: o.contentType } : {}),
        });
        if (hashed.digest().sha256 !== o.sha256)
          throw new ArchiveInvalid(`${name} changed since it was verified`);
        staged.objectsWritten++;
        counts.objects++;
        onObjectWritten(staged.objectsWritten);
        return;
      }
      await digestEntry(entry);
    },
    () => lease.check(),
  );
  return staged;
}

async function stageCollection(
  ctx: BackupContext,
  lease: JobLease,
  c: CollectionEntry,
  version: number,
  target: string,
  entry: AsyncIterable<Buffer>,
  onDocument: () => void,
): Promise<void> {
  const store = ctx.stores.collections;
  await store.drop(target);
  await store.create(target, c.name);
  let batch: RawDocument[] = [];
  let batchBytes = 0;
  let documents = 0;
  let rest = Buffer.alloc(0);
  const ejson = await loadEJSON();
  const flush = async () => {
    lease.check();
    await store.insertRaw(target, batch);
    batch = [];
    batchBytes = 0;
  };
  const digest = await digestEntry(entry, async (chunk) => {
    let buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a)) {
      const line = buf.subarray(0, nl);
      buf = buf.subarray(nl + 1);
      batch.push(parseLine(ejson, c.name, documents + 1, line, version));
      batchBytes += line.length;
      documents++;
      onDocument();
      if (batch.length >= BATCH_DOCS || batchBytes >= BATCH_BYTES) await flush();
    }
    rest = Buffer.from(buf);
  });
  if (rest.length) throw new ArchiveInvalid(`${c.file}: the last line is not terminated`);
  await flush();
  if (digest.sha256 !== c.sha256 || documents !== c.documents)
    throw new ArchiveInvalid(`${c.file} changed since it was verified`);
}

function parseLine(ejson: EJSON, collection: string, n: number, line: Buffer, version: number): RawDocument {
  try {
    return decodeDocument(ejson, line.toString('utf8'), version);
  } catch (err) {
    throw new ArchiveInvalid(
      `${collection}: document ${n} is not valid Extended JSON: ${(err as Error).message}`,
    );
  }
}
