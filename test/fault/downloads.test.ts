/**
 * Downloads cut off midway (issue 21, item 1): a client reads a few bytes of a large file, of a
 * range of it, of an image preview or of a backup archive, and hangs up. The compiled standalone
 * runs as a child process; after every case the same process must still serve, and the file and
 * the archive must still download whole.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { abortedDownload } from '../harness/raw-http';
import {
  adminToken,
  call,
  expectStillServing,
  jobEnded,
  registerOn,
  startCompiled,
  uploadTo,
  type CompiledServer,
} from '../harness/compiled';

let server: CompiledServer;
let token: string;
let admin: string;
/** Paths of an 8 MB PDF and of an image (whose preview is served from its own object). */
let pdfPath: string;
let imagePath: string;
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(8 * 1024 * 1024)]);

async function uploaded(data: Buffer, filename: string): Promise<string> {
  const res = await uploadTo(server, token, '/files', 'file', data, filename);
  if (res.status !== 201) throw new Error(`upload ${filename}: ${res.status} ${JSON.stringify(res.body)}`);
  return new URL((res.body.file as { url: string }).url).pathname;
}

/** Whole bytes through fetch, to check the object is still served intact. */
async function bytesOf(path: string, auth: string): Promise<Buffer> {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${auth}` } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

const cut = (path: string, auth: string, readBytes: number, headers: Record<string, string> = {}) =>
  abortedDownload({
    port: server.port,
    path,
    headers: { authorization: `Bearer ${auth}`, ...headers },
    readBytes,
  });

beforeAll(async () => {
  server = await startCompiled();
  token = await registerOn(server, 'fault_reader');
  admin = await adminToken(server);
  pdfPath = await uploaded(PDF, 'big.pdf');
  const png = await sharp({
    create: { width: 900, height: 700, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .png()
    .toBuffer();
  imagePath = await uploaded(png, 'picture.png');
});

afterAll(async () => {
  const exit = await server?.stop();
  expect(exit).toEqual({ code: 0, signal: null });
});

test('whole and ranged downloads of a large file, cut after a few bytes', async () => {
  const cuts = await Promise.all([
    cut(pdfPath, token, 2000),
    cut(pdfPath, token, 64 * 1024),
    cut(pdfPath, token, 2000, { range: 'bytes=100-7000000' }),
    cut(pdfPath, token, 300_000, { range: 'bytes=4000000-' }),
    cut(`${imagePath}/preview`, token, 300),
    cut(imagePath, token, 300, { range: 'bytes=10-' }),
  ]);
  expect(cuts.map((c) => c.statusLine)).toEqual([
    'HTTP/1.1 200 OK',
    'HTTP/1.1 200 OK',
    'HTTP/1.1 206 Partial Content',
    'HTTP/1.1 206 Partial Content',
    'HTTP/1.1 200 OK',
    'HTTP/1.1 206 Partial Content',
  ]);
  await expectStillServing(server, token);
  expect((await bytesOf(pdfPath, token)).equals(PDF)).toBe(true);
});

test('a backup archive download cut after a few bytes', async () => {
  const queued = await call<{ job: { id: string } }>(server, 'POST', '/admin/backup', { token: admin });
  expect(queued.status).toBe(202);
  const job = await jobEnded(server, admin, queued.body.job.id);
  expect(job.status).toBe('done');
  const path = `/admin/backup/${job.id}/download`;
  const cuts = await Promise.all([cut(path, admin, 500), cut(path, admin, 1024 * 1024)]);
  expect(cuts.map((c) => c.statusLine)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK']);
  await expectStillServing(server, token);
  const archive = await bytesOf(path, admin);
  expect(archive.length).toBeGreaterThan(PDF.length);
  expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
});
