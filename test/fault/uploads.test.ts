/**
 * Uploads cut off midway (issue 21, item 1): a signed-in user sends the start of a file slowly
 * and vanishes, or sends more than a limit allows. The compiled standalone runs as a child
 * process, so a crash is the process exiting; after every case the same process must answer
 * /health and an authenticated call, and nothing of the upload may stay stored.
 */
import { abortedRequest, multipartOpening } from '../harness/raw-http';
import {
  adminToken,
  call,
  expectStillServing,
  registerOn,
  startCompiled,
  type CompiledServer,
} from '../harness/compiled';

let server: CompiledServer;
let token: string;
let admin: string;

const MAGIC: Record<string, { contentType: string; bytes: Buffer }> = {
  png: { contentType: 'image/png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  jpeg: { contentType: 'image/jpeg', bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) },
  mp4: {
    contentType: 'video/mp4',
    bytes: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]),
  },
  pdf: { contentType: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n') },
  ogg: { contentType: 'audio/ogg', bytes: Buffer.from('OggS') },
};

/**
 * POST /files with the file's magic bytes, then `chunks` × `chunkBytes` zeros, then gone (or,
 * `complete`, the whole announced body and the answer awaited).
 */
function cutUpload(
  kind: keyof typeof MAGIC,
  chunks: number,
  chunkBytes: number,
  delayMs: number,
  ending: 'cut' | 'complete' = 'cut',
) {
  const m = MAGIC[kind]!;
  const { contentType, opening } = multipartOpening('file', `cut.${kind}`, m.contentType);
  return abortedRequest({
    port: server.port,
    path: '/files',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    head: Buffer.concat([opening, m.bytes]),
    chunks,
    chunkBytes,
    delayMs,
    ending,
  });
}

async function setSetting(name: string, value: unknown): Promise<void> {
  const res = await call(server, 'PATCH', `/admin/settings/${name}`, { token: admin, body: { value } });
  if (res.status !== 200) throw new Error(`setting ${name}: ${res.status} ${JSON.stringify(res.body)}`);
}

async function storedFiles(): Promise<number> {
  const res = await call<{ total: number }>(server, 'GET', '/files', { token });
  if (res.status !== 200) throw new Error(`GET /files: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.total;
}

beforeAll(async () => {
  server = await startCompiled();
  token = await registerOn(server, 'fault_uploader');
  admin = await adminToken(server);
});

afterAll(async () => {
  const exit = await server?.stop();
  // A clean SIGTERM drain: the process was never torn down by anything the tests sent.
  expect(exit).toEqual({ code: 0, signal: null });
});

test.each(Object.keys(MAGIC))('a %s upload sent slowly and cut off after a second', async (kind) => {
  await cutUpload(kind, 10, 64 * 1024, 100);
  await expectStillServing(server, token);
  expect(await storedFiles()).toBe(0);
});

test('an image past the default 40 MB image limit: 413, and cut off midway', async () => {
  const answer = await cutUpload('png', 42, 1024 * 1024, 2, 'complete');
  await expectStillServing(server, token);
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  await cutUpload('png', 44, 1024 * 1024, 5);
  await expectStillServing(server, token);
  expect(await storedFiles()).toBe(0);
});

test('past a small image limit and past the quota: 413, and cut off midway', async () => {
  await setSetting('maxImageUploadSize', 1);
  try {
    expect(await cutUpload('jpeg', 40, 64 * 1024, 2, 'complete')).toMatch(/^HTTP\/1\.1 413 /);
    await cutUpload('jpeg', 40, 64 * 1024, 10);
    await expectStillServing(server, token);
  } finally {
    await setSetting('maxImageUploadSize', 40);
  }
  await setSetting('userStorageQuota', 1);
  try {
    for (const kind of ['pdf', 'png', 'mp4'] as const) {
      expect(await cutUpload(kind, 40, 64 * 1024, 2, 'complete')).toMatch(/^HTTP\/1\.1 413 /);
      await cutUpload(kind, 40, 64 * 1024, 10);
      await expectStillServing(server, token);
    }
  } finally {
    await setSetting('userStorageQuota', 1024);
  }
  expect(await storedFiles()).toBe(0);
});

test('many cut-off uploads at once', async () => {
  await Promise.all(
    (['png', 'jpeg', 'pdf', 'png', 'mp4', 'jpeg'] as const).map((kind, i) =>
      cutUpload(kind, 5 + i, 32 * 1024, 50),
    ),
  );
  await expectStillServing(server, token);
  expect(await storedFiles()).toBe(0);
});
