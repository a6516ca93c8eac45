/**
 * One contract for every ObjectStorage adapter (style.md §9): the same cases run against the
 * disk adapter and against the S3 adapter under both checksum settings, each S3 case in a
 * bucket of its own on the test S3 server (gofakes3, see docs/adr/0002-s3-test-server.md).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DeleteBucketCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { BadRequest, NotFound } from '@agora/common/errors';
import {
  createDiskStorage,
  createS3Storage,
  type ObjectStorage,
  type StorageTuning,
} from '@agora/common/storage';
import { testEnv, uniqueName } from '../harness/env';

const MiB = 1024 * 1024;
const PART = 8 * MiB; // the adapter's default part size, deliberately not tuned down

interface PartEvent {
  key: string;
  partNumber: number;
  size: number;
}

interface Subject {
  storage: ObjectStorage;
  /** Multipart uploads still open in the bucket (S3 only). */
  openUploads?: () => Promise<number>;
  cleanup: () => Promise<void>;
}

const s3Client = () =>
  new S3Client({
    endpoint: testEnv.s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: testEnv.s3AccessKey, secretAccessKey: testEnv.s3SecretKey },
  });

function s3Subject(checksums: 'WHEN_REQUIRED' | 'WHEN_SUPPORTED') {
  return (tuning: StorageTuning): Subject => {
    // S3 bucket names allow no "_", which uniqueName uses as its separator.
    const bucket = uniqueName('st').replace(/_/g, '-');
    const storage = createS3Storage(
      {
        endpoint: testEnv.s3Endpoint,
        region: 'us-east-1',
        bucket,
        accessKeyId: testEnv.s3AccessKey,
        secretAccessKey: testEnv.s3SecretKey,
        forcePathStyle: true,
        checksums,
      },
      tuning,
    );
    const admin = s3Client();
    return {
      storage,
      openUploads: async () =>
        (await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads?.length ?? 0,
      cleanup: async () => {
        for await (const o of storage.list()) await storage.delete(o.key);
        await admin.send(new DeleteBucketCommand({ Bucket: bucket }));
        admin.destroy();
      },
    };
  };
}

const adapters: Array<{ name: string; make: (tuning: StorageTuning) => Subject | Promise<Subject> }> = [
  {
    name: 'disk',
    make: async () => {
      const root = await mkdtemp(join(tmpdir(), 'storage-contract-'));
      return {
        storage: createDiskStorage({ root }),
        cleanup: () => rm(root, { recursive: true, force: true }),
      };
    },
  },
  { name: 's3 WHEN_REQUIRED', make: s3Subject('WHEN_REQUIRED') },
  { name: 's3 WHEN_SUPPORTED', make: s3Subject('WHEN_SUPPORTED') },
];

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function readAll(body: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function keys(iter: AsyncIterable<{ key: string }>): Promise<string[]> {
  const out: string[] = [];
  for await (const o of iter) out.push(o.key);
  return out;
}

/**
 * A stream of `total` pseudo-random bytes produced lazily in 64 KiB chunks; `pulled()` says how
 * many bytes the consumer has taken so far, which shows whether it buffers the whole body.
 */
function lazyStream(
  total: number,
  seed = 1,
): { stream: Readable; digest: () => string; pulled: () => number } {
  const hash = createHash('sha256');
  let produced = 0;
  const block = randomBytes(64 * 1024);
  function* gen() {
    let n = seed;
    while (produced < total) {
      const size = Math.min(block.length, total - produced);
      const chunk = Buffer.from(block.subarray(0, size));
      chunk.writeUInt32BE(n++ >>> 0, 0); // make blocks differ so a reordered part would show
      hash.update(chunk);
      produced += size;
      yield chunk;
    }
  }
  return { stream: Readable.from(gen()), digest: () => hash.copy().digest('hex'), pulled: () => produced };
}

describe.each(adapters)('ObjectStorage contract: $name', ({ name, make }) => {
  const isS3 = name.startsWith('s3');
  const parts: PartEvent[] = [];
  let onPart: (e: PartEvent) => void = () => undefined;
  let subject: Subject;
  let storage: ObjectStorage;

  beforeAll(async () => {
    subject = await make({
      listPageSize: 2,
      onPartUploaded: (e) => {
        parts.push(e);
        onPart(e);
      },
    });
    storage = subject.storage;
    await storage.ensureBucket();
  });
  afterAll(async () => {
    await subject?.cleanup();
  });
  beforeEach(() => {
    parts.length = 0;
    onPart = () => undefined;
  });

  it('ensureBucket is idempotent and health reports ok', async () => {
    await storage.ensureBucket();
    await expect(storage.health()).resolves.toEqual({ ok: true });
  });

  it('round-trips a Buffer', async () => {
    const data = randomBytes(300 * 1024);
    const put = await storage.put('rt/buffer.bin', data);
    expect(put).toMatchObject({ key: 'rt/buffer.bin', size: data.length });
    // Both adapters give the MD5 of a single-part upload as its etag.
    expect(put.etag).toBe(createHash('md5').update(data).digest('hex'));
    const { body, info } = await storage.get('rt/buffer.bin');
    expect(sha256(await readAll(body))).toBe(sha256(data));
    expect(info).toMatchObject({ key: 'rt/buffer.bin', size: data.length, etag: put.etag });
    expect(info.lastModified).toBeInstanceOf(Date);
    await expect(storage.stat('rt/buffer.bin')).resolves.toMatchObject({ size: data.length, etag: put.etag });
  });

  it('reads a byte range, reporting the whole size', async () => {
    const data = randomBytes(64 * 1024);
    await storage.put('rt/range.bin', data);
    const { body, info } = await storage.get('rt/range.bin', { range: { start: 1000, end: 1999 } });
    expect((await readAll(body)).equals(data.subarray(1000, 2000))).toBe(true);
    expect(info.size).toBe(data.length);
    const tail = await storage.get('rt/range.bin', {
      range: { start: data.length - 1, end: data.length - 1 },
    });
    expect((await readAll(tail.body)).equals(data.subarray(data.length - 1))).toBe(true);
  });

  it('round-trips a stream shorter than one part in a single request', async () => {
    const src = lazyStream(700 * 1024 + 13);
    const put = await storage.put('rt/stream.bin', src.stream);
    expect(put.size).toBe(700 * 1024 + 13);
    expect(parts).toHaveLength(0);
    const { body, info } = await storage.get('rt/stream.bin');
    expect(sha256(await readAll(body))).toBe(src.digest());
    expect(info.size).toBe(700 * 1024 + 13);
  });

  it('uploads a 20 MB stream in parts without buffering it whole, and reads it back', async () => {
    const total = 20 * MiB;
    const src = lazyStream(total, 7);
    const pulledAtPart: number[] = [];
    onPart = () => pulledAtPart.push(src.pulled());
    const put = await storage.put('big/20mb.bin', src.stream, {
      contentType: 'video/mp4',
      contentLength: total,
    });
    expect(put).toMatchObject({ key: 'big/20mb.bin', size: total, contentType: 'video/mp4' });
    if (isS3) {
      expect(parts.map((p) => [p.partNumber, p.size])).toEqual([
        [1, PART],
        [2, PART],
        [3, total - 2 * PART],
      ]);
      // When part 1 was stored at most part 2 (and a little stream buffer) had been read.
      expect(pulledAtPart[0]).toBeLessThan(total);
    }
    const { body, info } = await storage.get('big/20mb.bin');
    expect(info).toMatchObject({ size: total, contentType: 'video/mp4' });
    expect(sha256(await readAll(body))).toBe(src.digest());
  });

  it('keeps the content type, defaulting to application/octet-stream', async () => {
    await storage.put('ct/page.html', '<p>hi</p>', { contentType: 'text/html; charset=utf-8' });
    await storage.put('ct/plain', 'x');
    expect((await storage.stat('ct/page.html'))?.contentType).toBe('text/html; charset=utf-8');
    const got = await storage.get('ct/page.html');
    expect(got.info.contentType).toBe('text/html; charset=utf-8');
    expect((await readAll(got.body)).toString()).toBe('<p>hi</p>');
    expect((await storage.stat('ct/plain'))?.contentType).toBe('application/octet-stream');
  });

  it('overwrites an existing key', async () => {
    await storage.put('ow/k', 'first version');
    await storage.put('ow/k', 'second', { contentType: 'text/plain' });
    const { body, info } = await storage.get('ow/k');
    expect((await readAll(body)).toString()).toBe('second');
    expect(info).toMatchObject({ size: 6, contentType: 'text/plain' });
  });

  it('reports a missing key: stat → null, get → NotFound', async () => {
    await expect(storage.stat('missing/nothing-here')).resolves.toBeNull();
    await expect(storage.get('missing/nothing-here')).rejects.toBeInstanceOf(NotFound);
  });

  it('deletes idempotently', async () => {
    await storage.put('del/k', 'x');
    await storage.delete('del/k');
    await storage.delete('del/k');
    await storage.delete('del/never-existed');
    await expect(storage.stat('del/k')).resolves.toBeNull();
    await expect(storage.get('del/k')).rejects.toBeInstanceOf(NotFound);
  });

  it('lists keys under a prefix in byte order, across pages of 2', async () => {
    // "-" < "/" < "0" in byte order: a naive directory walk would put ls/b/x first.
    const wanted = ['ls/a', 'ls/b-c', 'ls/b/x', 'ls/b/y/z', 'ls/b0', 'ls/c', 'ls/é'];
    for (const k of [...wanted].reverse()) await storage.put(k, `v:${k}`);
    await storage.put('ls2/outside', 'x');
    expect(await keys(storage.list('ls/'))).toEqual(wanted);
    expect(await keys(storage.list('ls/b'))).toEqual(['ls/b-c', 'ls/b/x', 'ls/b/y/z', 'ls/b0']);
    expect(await keys(storage.list('ls/nothing'))).toEqual([]);
    const all = await keys(storage.list());
    expect(all).toEqual(expect.arrayContaining([...wanted, 'ls2/outside']));
    expect(all).toEqual([...all].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    const first: Array<{ key: string; size: number }> = [];
    for await (const o of storage.list('ls/a')) first.push(o);
    expect(first).toEqual([expect.objectContaining({ key: 'ls/a', size: Buffer.byteLength('v:ls/a') })]);
  });

  it.each(['../x', 'a/../../x', '/etc/passwd', 'a//b', 'a/', './a', 'a\u0000b', ''])(
    'rejects the key %j with BadRequest',
    async (key) => {
      await expect(storage.put(key, 'x')).rejects.toBeInstanceOf(BadRequest);
      await expect(storage.get(key)).rejects.toBeInstanceOf(BadRequest);
      await expect(storage.stat(key)).rejects.toBeInstanceOf(BadRequest);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(BadRequest);
    },
  );

  it('rejects a body that differs from the declared length and stores nothing', async () => {
    await expect(storage.put('len/short', 'abc', { contentLength: 4 })).rejects.toBeInstanceOf(BadRequest);
    await expect(
      storage.put('len/stream', lazyStream(1000).stream, { contentLength: 999 }),
    ).rejects.toBeInstanceOf(BadRequest);
    await expect(storage.stat('len/short')).resolves.toBeNull();
    await expect(storage.stat('len/stream')).resolves.toBeNull();
  });

  it('aborts a multipart upload whose source stream fails, leaving nothing behind', async () => {
    function* failing() {
      for (let i = 0; i < 10 * 16; i++) yield randomBytes(64 * 1024); // 10 MiB: past the first part
      throw new Error('client went away');
    }
    await expect(storage.put('fail/k', Readable.from(failing()))).rejects.toThrow('client went away');
    await expect(storage.stat('fail/k')).resolves.toBeNull();
    if (subject.openUploads) await expect(subject.openUploads()).resolves.toBe(0);
  });
});

describe('disk adapter specifics', () => {
  let root: string;
  let storage: ObjectStorage;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'storage-disk-'));
    storage = createDiskStorage({ root });
    await storage.ensureBucket();
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('keeps metadata apart from keys, whatever the keys are named', async () => {
    await storage.put('meta/x.json', '{}', { contentType: 'application/json' });
    await storage.put('x', 'plain');
    expect(await keys(storage.list())).toEqual(['meta/x.json', 'x']);
    expect((await storage.stat('meta/x.json'))?.contentType).toBe('application/json');
  });

  it('serves a file dropped into data/ by hand, without metadata', async () => {
    await writeFile(join(root, 'data', 'manual.txt'), 'hand made');
    await expect(storage.stat('manual.txt')).resolves.toMatchObject({ size: 9 });
  });

  it('lets a key be reused as a prefix once it is deleted', async () => {
    await storage.put('dir/a', 'x');
    await expect(storage.put('dir/a/b', 'y')).rejects.toThrow(/collides/);
    await storage.delete('dir/a');
    await storage.put('dir/a/b', 'y');
    await storage.delete('dir/a/b');
    await storage.put('dir/a', 'x again'); // the emptied directory was pruned
    await expect(storage.stat('dir/a')).resolves.toMatchObject({ size: 7 });
  });

  it('reports an unwritable root as unhealthy', async () => {
    const missing = createDiskStorage({ root: join(root, 'does-not-exist') });
    const h = await missing.health();
    expect(h.ok).toBe(false);
    expect(h.detail).toMatch(/ENOENT/);
  });
});
