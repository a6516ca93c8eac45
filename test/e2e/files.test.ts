/**
 * Files end to end (issue 12), once on the disk store and once on the S3 test server: an image
 * with EXIF (a GPS position among it) is uploaded, stored without any metadata, attached to a
 * circle post, and served whole and by range to a member while a non-member and an anonymous
 * caller get 404. Bad input is refused with a 4xx and leaves nothing stored.
 */
import sharp from 'sharp';
import type { Runtime } from '@agora/common/runtime';
import { runGc } from '../../services/social/src/workers/gc';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { testEnv, uniqueName } from '../harness/env';
import { getBytes, truncatedUpload, upload } from '../harness/uploads';
import { createSocialContext } from '../../services/social/src/context';

const SECRET = 'AGORA-SECRET-PLACE';

async function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 30, g: 90, b: 200 } } })
    .jpeg()
    .withExif({
      IFD0: { Copyright: SECRET, ImageDescription: SECRET },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '22/1 19/1 56/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '114/1 11/1 25/1',
      },
    })
    .toBuffer();
}

async function storedKeys(rt: Runtime): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of rt.storage.list('files/')) keys.push(o.key);
  return keys;
}

const stores: Array<[string, () => Record<string, string>]> = [
  ['disk', () => ({})],
  [
    'S3',
    () => ({
      S3_ENDPOINT: testEnv.s3Endpoint,
      S3_BUCKET: uniqueName('files').replace(/_/g, '-'),
      S3_ACCESS_KEY: testEnv.s3AccessKey,
      S3_SECRET_KEY: testEnv.s3SecretKey,
    }),
  ],
];

describe.each(stores)('on the %s store', (_name, env) => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let rt: Runtime;
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  let circle: string;
  let fileId: string;
  let postId: string;
  let original: Buffer;

  beforeAll(async () => {
    server = await bootServer(env());
    api = client(server.url);
    rt = server.services[0]!.runtime!;
    await rt.storage.ensureBucket();
    [alice, bob, carol] = [
      await registerActor(api, 'alice'),
      await registerActor(api, 'bob'),
      await registerActor(api, 'carol'),
    ];
    const created = await outbox(api, alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'Close friends' },
    });
    circle = created.body.createdId!;
    expect((await outbox(api, alice, { type: 'Add', target: circle, object: bob.id })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  test('an image upload is stored without its EXIF, with a preview and a colour, and the record after the bytes', async () => {
    original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes(SECRET)).toBe(true);
    const res = await upload(server.url, alice.token, {
      data: original,
      filename: '../../etc/passwd.jpg',
      contentType: 'image/jpeg',
      fields: { summary: 'Blue sky' },
    });
    expect(res.status).toBe(201);
    const file = res.body.file as Record<string, unknown>;
    fileId = String(file.id);
    expect(file).toMatchObject({
      type: 'Image',
      mediaType: 'image/jpeg',
      width: 320,
      height: 200,
      summary: 'Blue sky',
      name: 'passwd.jpg',
      to: alice.id,
      parentObject: null,
    });
    expect(file.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(file).not.toHaveProperty('storageKey');

    const record = await rt.repos.files.findLive(fileId);
    expect(record!.storageKey).toMatch(/^files\/[a-f0-9]{24}$/);
    const stored = (await rt.storage.get(record!.storageKey)).body;
    const chunks: Buffer[] = [];
    for await (const c of stored) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(bytes.includes(SECRET)).toBe(false);
    expect(record!.size).toBe(bytes.length);
  });

  test('unattached, the file is its owner’s alone', async () => {
    expect((await getBytes(server.url, `/files/${fileId}`, { token: alice.token })).status).toBe(200);
    expect((await getBytes(server.url, `/files/${fileId}`, { token: bob.token })).status).toBe(404);
  });

  test('attached to a circle post: a member gets the bytes (and a 206 for a range); a non-member and anonymous get 404', async () => {
    const res = await outbox(api, alice, {
      type: 'Create',
      objectType: 'Post',
      to: circle,
      object: { type: 'Media', content: 'Look', attachments: [fileId] },
    });
    expect(res.status).toBe(201);
    postId = res.body.createdId!;
    expect(res.body.result).toMatchObject({ attachments: [fileId] });

    const whole = await getBytes(server.url, `/files/${encodeURIComponent(fileId)}`, { token: bob.token });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('image/jpeg');
    expect(Number(whole.headers.get('content-length'))).toBe(whole.bytes.length);
    expect(whole.headers.get('cache-control')).toMatch(/^private/);
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^"[a-f0-9]{64}"$/);
    expect((await sharp(whole.bytes).metadata()).width).toBe(320);

    const part = await getBytes(server.url, `/files/${fileId}`, {
      token: bob.token,
      headers: { range: 'bytes=10-109' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-109/${whole.bytes.length}`);
    expect(part.bytes.equals(whole.bytes.subarray(10, 110))).toBe(true);

    const again = await getBytes(server.url, `/files/${fileId}`, {
      token: bob.token,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);

    const preview = await getBytes(server.url, `/files/${fileId}/preview`, { token: bob.token });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(preview.bytes).metadata()).format).toBe('webp');

    for (const path of [`/files/${fileId}`, `/files/${fileId}/preview`, `/files/${fileId}/meta`]) {
      expect((await getBytes(server.url, path, { token: carol.token })).status).toBe(404);
      expect((await getBytes(server.url, path)).status).toBe(404);
    }
    const meta = await api.get<{ file: { id: string; parentObject: string } }>(`/files/${fileId}/meta`, {
      token: bob.token,
    });
    expect(meta.body.file).toMatchObject({ id: fileId, parentObject: postId });
  });

  test('a range past the end, or beyond any file size, is 416', async () => {
    for (const range of ['bytes=99999999-', 'bytes=0-99999999999999999999'])
      expect(
        (await getBytes(server.url, `/files/${fileId}`, { token: bob.token, headers: { range } })).status,
      ).toBe(416);
  });

  test('bad input: a clear 4xx and nothing stored', async () => {
    const before = await storedKeys(rt);
    const pdf = Buffer.from('%PDF-1.7\n' + 'x'.repeat(5000));
    const cases: Array<[number, Promise<{ status: number }>]> = [
      [400, upload(server.url, alice.token, { data: pdf, field: 'attachment' })],
      [400, upload(server.url, alice.token, { data: Buffer.alloc(0), filename: 'empty.png' })],
      [
        415,
        upload(server.url, alice.token, {
          data: Buffer.from('<svg onload="alert(1)"></svg>'),
          filename: 'x.png',
          contentType: 'image/png',
        }),
      ],
      [
        415,
        upload(server.url, alice.token, {
          data: Buffer.from('#!/bin/sh\nrm -rf /'),
          filename: 'photo.jpg',
          contentType: 'image/jpeg',
        }),
      ],
      [
        400,
        upload(server.url, alice.token, {
          data: Buffer.concat([original.subarray(0, 200), Buffer.alloc(3000, 7)]),
          filename: 'broken.jpg',
        }),
      ],
      [400, truncatedUpload(server.url, alice.token, pdf)],
      [401, upload(server.url, undefined, { data: pdf })],
      [
        400,
        upload(server.url, alice.token, {
          data: pdf,
          fields: { parentObject: postId.replace(/[a-f0-9]{24}/, 'a'.repeat(24)) },
        }),
      ],
    ];
    for (const [status, res] of cases) expect((await res).status).toBe(status);
    expect(await storedKeys(rt)).toEqual(before);
    const listed = await api.get<{ total: number }>('/files', { token: alice.token });
    expect(listed.body.total).toBe(1);
  });

  test('a non-image streams through: a PDF keeps its bytes and checksum', async () => {
    const pdf = Buffer.from('%PDF-1.4\n' + 'y'.repeat(200_000));
    const res = await upload(server.url, alice.token, {
      data: pdf,
      filename: 'doc.pdf',
      fields: { to: '@public' },
    });
    expect(res.status).toBe(201);
    const file = res.body.file as { id: string; size: number; type: string };
    expect(file).toMatchObject({ type: 'Document', size: pdf.length });
    const got = await getBytes(server.url, `/files/${file.id}`);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(pdf)).toBe(true);
    expect(got.headers.get('cache-control')).toMatch(/^public/);
    const del = await api.call('DELETE', `/files/${file.id}`, { token: bob.token });
    expect(del.status).toBe(403);
    const ok = await api.call('DELETE', `/files/${file.id}`, { token: alice.token });
    expect(ok).toMatchObject({ status: 200, body: { deleted: true, id: file.id } });
    expect((await getBytes(server.url, `/files/${file.id}`)).status).toBe(404);
  });

  test('a deleted post takes its files along; the GC removes the bytes, and day-old orphans too', async () => {
    const orphan = await upload(server.url, alice.token, { data: Buffer.from('%PDF-1.4\norphan') });
    const orphanId = String((orphan.body.file as { id: string }).id);
    const record = (await rt.repos.files.findLive(fileId))!;
    expect((await outbox(api, alice, { type: 'Delete', target: postId })).status).toBe(201);
    expect((await getBytes(server.url, `/files/${fileId}`, { token: bob.token })).status).toBe(404);
    expect((await getBytes(server.url, `/files/${fileId}`, { token: alice.token })).status).toBe(404);

    const report = await runGc(createSocialContext(rt), new Date(Date.now() + 25 * 3600 * 1000));
    expect(report.removed.orphanFiles).toBe(1);
    expect(report.removed.files).toBeGreaterThanOrEqual(2);
    expect(await rt.storage.stat(record.storageKey)).toBeNull();
    expect(await rt.storage.stat(record.preview!.key)).toBeNull();
    expect(await rt.repos.files.findLive(orphanId)).toBeNull();
    expect(await storedKeys(rt)).toEqual([]);
    expect(await rt.repos.files.usageOf(alice.id)).toEqual({ bytes: 0, files: 0 });
  });
});
