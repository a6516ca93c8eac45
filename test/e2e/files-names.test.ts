/**
 * Upload file names outside ASCII (issue 21, item 5.7): browsers and fetch send the multipart
 * `filename` parameter as raw UTF-8 bytes (WHATWG multipart/form-data), which busboy decodes as
 * Latin-1 unless told otherwise (`ünï©ødé.png` became `Ã¼nÃ¯Â©Ã¸dÃ©.png`). A real multipart
 * upload, the name read back from `/files/:id/meta`.
 */
import http from 'node:http';
import sharp from 'sharp';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import { upload } from '../harness/uploads';

let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let png: Buffer;

beforeAll(async () => {
  server = await bootServer({ RATE_LIMITING_ENABLED: 'false' });
  api = client(server.url);
  await server.services[0]!.runtime!.storage.ensureBucket();
  alice = await registerActor(api, 'alice');
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await server?.close();
});

async function nameOf(id: string): Promise<string> {
  const meta = await api.get<{ file: { name: string } }>(`/files/${encodeURIComponent(id)}/meta`, {
    token: alice.token,
  });
  if (meta.status !== 200) throw new Error(`meta ${id}: ${meta.status} ${JSON.stringify(meta.body)}`);
  return meta.body.file.name;
}

interface Uploaded {
  status: number;
  body: { file?: { id: string; name: string } };
}

/** A multipart body written by hand, so the filename parameter is exactly these bytes. */
function rawUpload(disposition: Buffer): Promise<Uploaded> {
  const boundary = 'agoraNames';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; `),
    disposition,
    Buffer.from('\r\nContent-Type: image/png\r\n\r\n'),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${server.url}/files`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${alice.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString()) as Uploaded['body'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test.each(['ünï©ødé.png', '日本語 📷.png', 'Ωmega – “quoted”.png'])(
  'a UTF-8 file name from a real multipart upload is stored as sent: %s',
  async (filename) => {
    const res = await upload(server.url, alice.token, { data: png, filename, contentType: 'image/png' });
    expect(res.status).toBe(201);
    const file = res.body.file as { id: string; name: string };
    expect(file.name).toBe(filename);
    expect(await nameOf(file.id)).toBe(filename);
  },
);

test('raw UTF-8 bytes in filename="…" and the RFC 5987 form filename*=UTF-8\'\'… give the same name', async () => {
  const plain = await rawUpload(
    Buffer.concat([Buffer.from('filename="'), Buffer.from('ünï©ødé.png'), Buffer.from('"')]),
  );
  expect(plain.status).toBe(201);
  expect(await nameOf(plain.body.file!.id)).toBe('ünï©ødé.png');
  const extended = await rawUpload(Buffer.from(`filename*=UTF-8''${encodeURIComponent('ünï©ødé.png')}`));
  expect(extended.status).toBe(201);
  expect(await nameOf(extended.body.file!.id)).toBe('ünï©ødé.png');
});
