/**
 * Restore, first pass: reads the whole archive and checks it against its manifest before
 * anything is changed (decisions.md §8): gzip and tar integrity, format and version, domain,
 * every entry's SHA-256 and size, every collection's document count, no entry missing, extra
 * or duplicated, and names a restore may safely create. Any failure throws ArchiveInvalid.
 */
import type { Readable } from 'node:stream';
import { assertValidKey } from '@agora/common/storage';
import { mapChunks, through } from '@agora/common/streams';
import type { BackupContext } from '../context';
import type { JobLease } from '../lease';
import { digestEntry, type Digest } from '../archive/entries';
import { ArchiveInvalid, forEachEntry } from '../archive/read';
import { checkEntryCount, checkManifestSize, manifestCounter } from '../archive/bounds';
import {
  ARCHIVE_FORMAT,
  DB_DIR,
  FILES_DIR,
  MANIFEST_ENTRY,
  READABLE_VERSIONS,
  collectionFile,
  manifestSchema,
  objectFile,
  type Manifest,
} from '../archive/manifest';
import { isArchivable } from '../archive/write';

const NEWLINE = 0x0a;

/** Counts compressed bytes read, for the progress bar. */
export function counting(body: Readable, onBytes: (n: number) => void): Readable {
  let n = 0;
  // A failing source fails the counter, and so whoever reads it.
  return through(
    body,
    mapChunks((chunk) => {
      n += chunk.length;
      onBytes(n);
      return chunk;
    }),
  );
}

/** The local copy of the archive both passes read (the same bytes are verified and applied). */
export interface LocalArchive {
  open(): Readable;
  size: number;
}

export async function verifyArchive(
  ctx: BackupContext,
  lease: JobLease,
  archive: LocalArchive,
): Promise<Manifest> {
  const seen = new Map<string, Digest & { lines: number }>();
  let manifestRaw: Buffer | undefined;
  const counts = { entries: 0 };
  const input = counting(archive.open(), (n) =>
    lease.progress({ stage: 'verify', pct: 20 + (25 * n) / Math.max(1, archive.size), counts }),
  );
  await forEachEntry(
    input,
    async (name, size, entry) => {
      if (seen.has(name) || (name === MANIFEST_ENTRY && manifestRaw))
        throw new ArchiveInvalid(`${name} appears twice in the archive`);
      if (name === MANIFEST_ENTRY) {
        // Bounded before it is read, and while it streams, before it is parsed (archive/bounds.ts).
        checkManifestSize(size);
        const count = manifestCounter();
        const parts: Buffer[] = [];
        await digestEntry(entry, (c) => {
          count(c);
          parts.push(c);
        });
        manifestRaw = Buffer.concat(parts);
        return;
      }
      checkEntryCount(seen.size + 1, 'the archive');
      if (!name.startsWith(DB_DIR) && !name.startsWith(FILES_DIR))
        throw new ArchiveInvalid(`unexpected entry ${name} (an archive holds manifest.json, db/ and files/)`);
      let lines = 0;
      const digest = await digestEntry(entry, (c) => {
        for (let i = c.indexOf(NEWLINE); i !== -1; i = c.indexOf(NEWLINE, i + 1)) lines++;
      });
      seen.set(name, { ...digest, lines });
      counts.entries++;
    },
    () => lease.check(),
  );
  if (!manifestRaw) throw new ArchiveInvalid('the archive has no manifest.json');
  const manifest = parseManifest(manifestRaw);
  checkEntryCount(manifest.collections.length + manifest.objects.length, 'manifest.json');
  if (manifest.domain !== ctx.config.DOMAIN)
    throw new ArchiveInvalid(
      `the archive is from ${manifest.domain}; this server is ${ctx.config.DOMAIN} (ids embed the domain)`,
    );
  const names = new Set<string>();
  for (const c of manifest.collections) {
    if (names.has(c.name)) throw new ArchiveInvalid(`collection ${c.name} is listed twice in the manifest`);
    names.add(c.name);
    if (c.file !== collectionFile(c.name))
      throw new ArchiveInvalid(`collection ${c.name}: unexpected file ${c.file}`);
    const got = take(seen, c.file);
    if (got.sha256 !== c.sha256 || got.bytes !== c.bytes)
      throw new ArchiveInvalid(
        `${c.file}: SHA-256 or size does not match the manifest (the archive was altered)`,
      );
    if (got.lines !== c.documents)
      throw new ArchiveInvalid(`${c.file}: ${got.lines} documents, the manifest says ${c.documents}`);
  }
  for (const o of manifest.objects) {
    try {
      assertValidKey(o.key);
    } catch {
      throw new ArchiveInvalid(`object key ${JSON.stringify(o.key)} is not a valid key`);
    }
    if (!isArchivable(o.key)) throw new ArchiveInvalid(`object ${o.key} lies under a reserved prefix`);
    if (o.file !== objectFile(o.key)) throw new ArchiveInvalid(`object ${o.key}: unexpected file ${o.file}`);
    const got = take(seen, o.file);
    if (got.sha256 !== o.sha256 || got.bytes !== o.size)
      throw new ArchiveInvalid(
        `${o.file}: SHA-256 or size does not match the manifest (the archive was altered)`,
      );
  }
  const extra = seen.keys().next();
  if (!extra.done) throw new ArchiveInvalid(`${extra.value} is in the archive but not in its manifest`);
  return manifest;
}

function take(seen: Map<string, Digest & { lines: number }>, file: string): Digest & { lines: number } {
  const got = seen.get(file);
  if (!got) throw new ArchiveInvalid(`${file} is in the manifest but missing from the archive`);
  seen.delete(file);
  return got;
}

function parseManifest(raw: Buffer): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ArchiveInvalid('manifest.json is not valid JSON');
  }
  const format = (json as { format?: unknown; version?: unknown } | null)?.format;
  const version = (json as { version?: unknown } | null)?.version;
  if (format !== ARCHIVE_FORMAT)
    throw new ArchiveInvalid(`not an Agora backup (format ${JSON.stringify(format)})`);
  if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version))
    throw new ArchiveInvalid(
      `archive format version ${JSON.stringify(version)} is not supported (this server reads ${READABLE_VERSIONS.join(' and ')})`,
    );
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArchiveInvalid(`manifest.json: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
