import { fromIterable } from '@agora/common/streams';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { forEachEntry } from './read';

async function archive(): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name: 'db/users.jsonl' }, '{"_id":"a"}\n');
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const c of pack) parts.push(c as Buffer);
  return gzipSync(Buffer.concat(parts));
}

test("a visitor's database error (a numeric code) comes out as it is, not as an archive fault", async () => {
  // What a failed insert while staging throws: MongoDB's codes are numbers, zlib's strings.
  const dbError = Object.assign(new Error('invalid key: "$date"'), { code: 2 });
  await expect(
    forEachEntry(
      fromIterable([await archive()]),
      () => Promise.reject(dbError),
      () => undefined,
    ),
  ).rejects.toBe(dbError);
});
