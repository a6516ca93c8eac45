/**
 * The archive format (decisions.md §8, docs/adr/0007-backup-archive.md): a gzip'd tar holding
 * `db/<collection>.jsonl` (canonical MongoDB Extended JSON, one document a line), `files/<key>`
 * (every object of the store except archives and restore uploads) and, last, `manifest.json`,
 * which names every entry with its SHA-256 and size. The manifest comes last because the
 * archive is written as it is produced: the checksums are known only at the end.
 */
import { z } from 'zod';

export const ARCHIVE_FORMAT = 'agora-backup';
/**
 * Bump when the layout changes; restore refuses versions it does not know.
 * 2: documents in relaxed Extended JSON, indexes not archived (declared in code: ADR 0013).
 * 3: keys of the data that start with `$` escaped (archive/codec.ts).
 */
export const ARCHIVE_VERSION = 3;
/** The versions a restore reads. */
export const READABLE_VERSIONS: readonly number[] = [2, 3];
export const MANIFEST_ENTRY = 'manifest.json';
export const DB_DIR = 'db/';
export const FILES_DIR = 'files/';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hex digest');
const size = z.number().int().min(0);
/** Collection names a restore will create: no system, staging or `$` names. */
const collectionName = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be a plain collection name')
  .refine((n) => !n.startsWith('system.'), 'must not be a system collection');

export const manifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.number().int(),
  createdAt: z.iso.datetime(),
  domain: z.string().min(1),
  collections: z.array(
    z.object({
      name: collectionName,
      file: z.string(),
      documents: size,
      bytes: size,
      sha256,
    }),
  ),
  objects: z.array(
    z.object({
      key: z.string().min(1),
      file: z.string(),
      size,
      sha256,
      contentType: z.string().optional(),
    }),
  ),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type CollectionEntry = Manifest['collections'][number];
export type ObjectEntry = Manifest['objects'][number];

export const collectionFile = (name: string) => `${DB_DIR}${name}.jsonl`;
export const objectFile = (key: string) => `${FILES_DIR}${key}`;

/** `backup-2026-11-26T05-34-05-123Z.tar.gz`: sortable, unique per job (one job at a time). */
export function archiveNameFor(at: Date): string {
  return `backup-${at.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
}
