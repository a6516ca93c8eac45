/**
 * Issue 21, item 5: a 1.1 MB restore archive made the server allocate about 1 GB (the manifest
 * was read whole up to 256 MB, then parsed into millions of entries). The restore's first pass
 * now bounds the manifest before reading it (its tar header), while it streams (its JSON values,
 * before JSON.parse) and after parsing (its entries), and bounds the tar entries it remembers.
 * Each hostile archive fails with a clear ArchiveInvalid, before the allocation it aimed at.
 */
import { mkdtempSync, rmSync, writeFileSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackupContext } from '../../../services/backup/src/context';
import type { JobLease } from '../../../services/backup/src/lease';
import { verifyArchive } from '../../../services/backup/src/restore/verify';
import { MAX_ARCHIVE_ENTRIES, MAX_MANIFEST_VALUES } from '../../../services/backup/src/archive/bounds';
import { tarGz, type ArchiveEntry } from '../../harness/archives';

const ctx = { config: { DOMAIN: 'social.test' } } as unknown as BackupContext;
const lease = { check: () => undefined, progress: () => undefined } as unknown as JobLease;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agora-bounds-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the verify pass on `archive`; resolves with its error (the test fails if it passes). */
async function verifyError(archive: Buffer): Promise<Error> {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.tar.gz`);
  writeFileSync(path, archive);
  try {
    await verifyArchive(ctx, lease, { open: () => createReadStream(path), size: archive.length });
  } catch (err) {
    return err as Error;
  }
  throw new Error('the archive was accepted');
}

const HEAD =
  '{"format":"agora-backup","version":1,"createdAt":"2026-01-01T00:00:00.000Z","domain":"social.test","collections":[],"objects":[';

test('a manifest whose header says 200 MB fails before a byte of it is read', async () => {
  // Cut right after the first bytes: reading on (the old 256 MB bound) ends in a truncation error.
  const archive = await tarGz([], {
    name: 'manifest.json',
    declared: 200 * 1024 * 1024,
    data: Buffer.from(HEAD),
  });
  const err = await verifyError(archive);
  expect(err.name).toBe('ArchiveInvalid');
  expect(err.message).toBe('manifest.json is 200.0 MB; a manifest may be at most 16.0 MB');
});

test('a small manifest of millions of values fails while it streams, before it is parsed', async () => {
  // 6 MB of `{},` (2 million objects), then bytes that are not JSON: a parser would have built
  // every object before reaching them; the count stops the read first.
  const values = Buffer.alloc(3 * 2_000_000, '{},');
  const manifest = Buffer.concat([Buffer.from(HEAD), values, Buffer.from('not json')]);
  const archive = await tarGz([{ name: 'manifest.json', data: manifest }]);
  expect(archive.length).toBeLessThan(100 * 1024);
  const err = await verifyError(archive);
  expect(err.name).toBe('ArchiveInvalid');
  expect(err.message).toBe(
    `manifest.json holds more than ${MAX_MANIFEST_VALUES} JSON values (at most ${MAX_ARCHIVE_ENTRIES} entries)`,
  );
});

test('an archive of more tar entries than any manifest may list fails once past the bound', async () => {
  function* empties(): Generator<ArchiveEntry> {
    for (let i = 0; i <= MAX_ARCHIVE_ENTRIES; i++) yield { name: `db/c${i}.jsonl`, data: Buffer.alloc(0) };
  }
  const archive = await tarGz(empties());
  const err = await verifyError(archive);
  expect(err.name).toBe('ArchiveInvalid');
  expect(err.message).toBe(
    `the archive: more than ${MAX_ARCHIVE_ENTRIES} entries (the limit of one archive)`,
  );
});
