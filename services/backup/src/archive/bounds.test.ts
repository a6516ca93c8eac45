import {
  MAX_ARCHIVE_ENTRIES,
  MAX_MANIFEST_BYTES,
  checkArchivable,
  checkWrittenManifest,
  manifestCounter,
} from './bounds';

test('the writer refuses an archive the restore would refuse', () => {
  expect(() => checkArchivable(30, MAX_ARCHIVE_ENTRIES - 30)).not.toThrow();
  expect(() => checkArchivable(30, MAX_ARCHIVE_ENTRIES - 29)).toThrow(
    `30 collections and ${MAX_ARCHIVE_ENTRIES - 29} objects: one archive holds at most ${MAX_ARCHIVE_ENTRIES} entries`,
  );
  expect(() => checkWrittenManifest(Buffer.alloc(MAX_MANIFEST_BYTES + 1, 0x20))).toThrow(
    `the manifest would be ${MAX_MANIFEST_BYTES + 1} bytes; a restore reads at most ${MAX_MANIFEST_BYTES}`,
  );
});

test('a real manifest of the largest archive stays under the value bound', () => {
  // The writer's format (JSON.stringify(manifest, null, 1)), with every object entry field set.
  const objects = Array.from({ length: 60_000 }, (_, i) => ({
    key: `files/${i.toString(16).padStart(24, '0')}`,
    file: `files/files/${i.toString(16).padStart(24, '0')}`,
    size: 123456,
    sha256: 'a'.repeat(64),
    contentType: 'image/png',
  }));
  const json = Buffer.from(JSON.stringify({ format: 'agora-backup', version: 1, objects }, null, 1));
  expect(json.length).toBeLessThan(MAX_MANIFEST_BYTES);
  expect(() => checkWrittenManifest(json)).not.toThrow();
});

test('the count goes across chunks and stops at the bound', () => {
  const count = manifestCounter();
  const chunk = Buffer.alloc(1024 * 1024, ',');
  expect(() => {
    for (let i = 0; i < 2; i++) count(chunk);
  }).toThrow('manifest.json holds more than 1600000 JSON values (at most 100000 entries)');
});
