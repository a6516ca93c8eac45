/**
 * Produces a backup archive straight into object storage: tar → gzip → multipart upload, all
 * streaming. Each collection is first spooled to a temporary file (a tar entry needs its size
 * up front, and reading the collection twice could see two different states); objects go from
 * the store into the tar as they are read. Memory holds one batch of documents, one upload part
 * and the manifest (one small entry per object).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar, { type Pack } from 'tar-stream';
import { loadEJSON } from '@agora/common/db';
import { BACKUP_ARCHIVE_PREFIX, RESTORE_UPLOAD_PREFIX } from '@agora/common/messaging';
import type { ObjectInfo } from '@agora/common/storage';
import { flow, guard, mapChunks, passThrough } from '@agora/common/streams';
import type { BackupContext } from '../context';
import type { JobLease } from '../lease';
import { checkArchivable, checkWrittenManifest } from './bounds';
import { encodeDocument } from './codec';
import { addEntry } from './entries';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  MANIFEST_ENTRY,
  collectionFile,
  objectFile,
  type CollectionEntry,
  type Manifest,
  type ObjectEntry,
} from './manifest';

export interface WrittenArchive {
  size: number;
  sha256: string;
  counts: Record<string, number>;
}

/** Objects that are not application data: archives and restore uploads. */
export function isArchivable(key: string): boolean {
  return !key.startsWith(BACKUP_ARCHIVE_PREFIX) && !key.startsWith(RESTORE_UPLOAD_PREFIX);
}

export async function writeArchive(
  ctx: BackupContext,
  lease: JobLease,
  key: string,
): Promise<WrittenArchive> {
  const pack = tar.pack();
  const hash = createHash('sha256');
  let size = 0;
  const measure = mapChunks((chunk) => {
    hash.update(chunk);
    size += chunk.length;
    return chunk;
  });
  const out = passThrough();
  // The pack is a streamx readable; Node's pipeline reads it like its own (its end is not the issue
  // it has with a streamx writable: archive/read.ts).
  const piping = flow([pack as unknown as Readable, createGzip(), measure, out]);
  const upload = ctx.storage.put(key, out, { contentType: 'application/gzip' });
  const producing = produce(ctx, lease, pack).then(
    (counts) => {
      pack.finalize();
      return counts;
    },
    (err: Error) => {
      pack.destroy(err);
      throw err;
    },
  );
  const [produced, piped, uploaded] = await Promise.allSettled([producing, piping, upload]);
  // The producer's error says why; the pipe and upload errors only echo it.
  for (const r of [produced, piped, uploaded]) if (r.status === 'rejected') throw r.reason;
  return {
    size,
    sha256: hash.digest('hex'),
    counts: (produced as PromiseFulfilledResult<Record<string, number>>).value,
  };
}

async function produce(ctx: BackupContext, lease: JobLease, pack: Pack): Promise<Record<string, number>> {
  const check = () => lease.check();
  const names = await ctx.stores.collections.applicationCollections();
  const objects: ObjectInfo[] = [];
  for await (const o of ctx.storage.list()) if (isArchivable(o.key)) objects.push(o);
  checkArchivable(names.length, objects.length);
  const totalBytes = objects.reduce((n, o) => n + o.size, 0);
  // Collections take the first share of the bar, objects the rest (by bytes).
  const dbShare = objects.length ? 30 : 95;
  const counts = { collections: 0, documents: 0, objects: 0, bytes: 0 };
  const collections: CollectionEntry[] = [];
  const spool = await mkdtemp(join(tmpdir(), 'agora-backup-'));
  try {
    for (const [i, name] of names.entries()) {
      lease.progress({ stage: 'collections', pct: (dbShare * i) / Math.max(1, names.length), counts });
      const path = join(spool, `${i}.jsonl`);
      const spooled = await spoolCollection(ctx, name, path, check, () => {
        counts.documents++;
      });
      const digest = await addEntry(pack, collectionFile(name), spooled.bytes, createReadStream(path), check);
      await rm(path);
      collections.push({
        name,
        file: collectionFile(name),
        documents: spooled.documents,
        bytes: digest.bytes,
        sha256: digest.sha256,
      });
      counts.collections++;
    }
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
  const entries: ObjectEntry[] = [];
  for (const o of objects) {
    lease.progress({
      stage: 'objects',
      pct: dbShare + ((98 - dbShare) * counts.bytes) / Math.max(1, totalBytes),
      counts,
    });
    const { body, info } = await ctx.storage.get(o.key);
    const digest = await addEntry(pack, objectFile(o.key), info.size, body, check).finally(() =>
      body.destroy(),
    );
    entries.push({
      key: o.key,
      file: objectFile(o.key),
      size: digest.bytes,
      sha256: digest.sha256,
      ...(info.contentType ? { contentType: info.contentType } : {}),
    });
    counts.objects++;
    counts.bytes += digest.bytes;
  }
  const manifest: Manifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    createdAt: new Date().toISOString(),
    domain: ctx.config.DOMAIN,
    collections,
    objects: entries,
  };
  lease.progress({ stage: 'manifest', pct: 99, counts }, true);
  const json = Buffer.from(JSON.stringify(manifest, null, 1));
  checkWrittenManifest(json);
  await addEntry(pack, MANIFEST_ENTRY, json.length, [json], check);
  return counts;
}

/** Writes a collection as Extended JSON lines (codec.ts) to a file; returns its size and document count. */
async function spoolCollection(
  ctx: BackupContext,
  name: string,
  path: string,
  check: () => void,
  onDocument: () => void,
): Promise<{ bytes: number; documents: number }> {
  const ejson = await loadEJSON();
  const out = guard(createWriteStream(path));
  let bytes = 0;
  let documents = 0;
  try {
    for await (const doc of ctx.stores.collections.documents(name)) {
      const line = Buffer.from(`${encodeDocument(ejson, doc)}\n`);
      bytes += line.length;
      documents++;
      onDocument();
      if (documents % 500 === 0) check();
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
  } catch (err) {
    out.destroy();
    throw err;
  }
  return { bytes, documents };
}
