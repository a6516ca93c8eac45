/**
 * How big one archive's manifest may be (issue 21, item 5). A restore reads the manifest whole
 * and parses it; gzip shrinks repetitive JSON several hundred times, so without bounds a 1 MB
 * upload could make the server allocate gigabytes. The writer refuses to produce an archive the
 * reader would refuse, so every backup this server makes can be restored.
 */
import { ArchiveInvalid } from './read';

/** The manifest's bytes (about 70,000 object entries of ~230 bytes each fit). */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
/** Collections plus objects one archive may list (and tar entries it may hold). */
export const MAX_ARCHIVE_ENTRIES = 100_000;
/**
 * JSON values the manifest may hold, counted before it is parsed (see `manifestCounter`): an
 * entry holds about 7, so real manifests stay far below, while `[{},{},…]` stays a few MB.
 */
export const MAX_MANIFEST_VALUES = 16 * MAX_ARCHIVE_ENTRIES;

const MB = 1024 * 1024;
const inMb = (n: number) => `${(n / MB).toFixed(1)} MB`;

/** The tar header's size, before a byte of the manifest is read. */
export function checkManifestSize(bytes: number): void {
  if (bytes > MAX_MANIFEST_BYTES)
    throw new ArchiveInvalid(
      `manifest.json is ${inMb(bytes)}; a manifest may be at most ${inMb(MAX_MANIFEST_BYTES)}`,
    );
}

/**
 * Counts the manifest's JSON values as its chunks stream in, before anything is parsed: every
 * value but the first follows a comma or opens an array or object, so commas and opening
 * brackets bound the count (inside strings too: an overestimate, safe for the bound).
 */
export function manifestCounter(): (chunk: Buffer) => void {
  let values = 0;
  return (chunk) => {
    for (const byte of chunk) if (byte === 0x2c || byte === 0x5b || byte === 0x7b) values++;
    if (values > MAX_MANIFEST_VALUES)
      throw new ArchiveInvalid(
        `manifest.json holds more than ${MAX_MANIFEST_VALUES} JSON values (at most ${MAX_ARCHIVE_ENTRIES} entries)`,
      );
  };
}

/** Collections plus objects listed (after parsing), or tar entries met (while reading). */
export function checkEntryCount(entries: number, what: string): void {
  if (entries > MAX_ARCHIVE_ENTRIES)
    throw new ArchiveInvalid(`${what}: more than ${MAX_ARCHIVE_ENTRIES} entries (the limit of one archive)`);
}

/** The writer's side: an archive this server could not restore is refused before it is made. */
export function checkArchivable(collections: number, objects: number): void {
  if (collections + objects > MAX_ARCHIVE_ENTRIES)
    throw new Error(
      `${collections} collections and ${objects} objects: one archive holds at most ${MAX_ARCHIVE_ENTRIES} entries`,
    );
}

/** The writer's side, once the manifest is serialised. */
export function checkWrittenManifest(json: Buffer): void {
  if (json.length > MAX_MANIFEST_BYTES)
    throw new Error(
      `the manifest would be ${json.length} bytes; a restore reads at most ${MAX_MANIFEST_BYTES}`,
    );
  manifestCounter()(json);
}
