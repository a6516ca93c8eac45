/**
 * Restores that go wrong (issue 21, items 1 and 5): the restore upload cut off midway, and
 * archives that are truncated, garbage, not a tar, or carry a manifest far over its bound. Each
 * bad archive fails its job with a reason an operator can act on; the compiled standalone (a
 * child process) keeps serving, from the same process, and its data is untouched.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { tarGz } from '../harness/archives';
import { abortedRequest, multipartOpening } from '../harness/raw-http';
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
let archive: Buffer;
let postId: string;

async function jobCount(): Promise<number> {
  const res = await call<{ jobs: unknown[] }>(server, 'GET', '/admin/backup', { token: admin });
  if (res.status !== 200) throw new Error(`GET /admin/backup: ${res.status}`);
  return res.body.jobs.length;
}

/** Uploads `data` as a restore archive and waits for the job's end. */
async function restore(data: Buffer) {
  const res = await uploadTo(server, admin, '/admin/backup/restore', 'archive', data, 'backup.tar.gz');
  if (res.status !== 202) throw new Error(`restore upload: ${res.status} ${JSON.stringify(res.body)}`);
  return jobEnded(server, admin, (res.body.job as { id: string }).id);
}

/** The post made before any restore is still there, unchanged. */
async function expectDataUntouched(): Promise<void> {
  const res = await call<{ content?: string; object?: { content?: string } }>(
    server,
    'GET',
    `/posts/${encodeURIComponent(postId)}`,
    { token },
  );
  expect(res.status).toBe(200);
  expect(JSON.stringify(res.body)).toContain('kept through every failed restore');
}

beforeAll(async () => {
  server = await startCompiled();
  token = await registerOn(server, 'fault_restorer');
  admin = await adminToken(server);
  const post = await call<{ createdId?: string }>(server, 'POST', '/outbox', {
    token,
    body: {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { type: 'Note', content: 'kept through every failed restore' },
    },
  });
  if (post.status !== 201 || !post.body.createdId) throw new Error(`post: ${post.status}`);
  postId = post.body.createdId;
  const queued = await call<{ job: { id: string } }>(server, 'POST', '/admin/backup', { token: admin });
  const job = await jobEnded(server, admin, queued.body.job.id);
  if (job.status !== 'done') throw new Error(`backup: ${JSON.stringify(job)}`);
  const res = await fetch(`${server.url}/admin/backup/${job.id}/download`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  archive = Buffer.from(await res.arrayBuffer());
});

afterAll(async () => {
  const exit = await server?.stop();
  expect(exit).toEqual({ code: 0, signal: null });
});

test('the restore upload cut off midway: no job, the server serves on', async () => {
  const before = await jobCount();
  const { contentType, opening } = multipartOpening('archive', 'backup.tar.gz', 'application/gzip');
  await Promise.all(
    [10, 1].map((delayMs) =>
      abortedRequest({
        port: server.port,
        path: '/admin/backup/restore',
        headers: { authorization: `Bearer ${admin}`, 'content-type': contentType },
        head: Buffer.concat([opening, archive.subarray(0, 1000)]),
        chunks: 20,
        chunkBytes: 64 * 1024,
        delayMs,
      }),
    ),
  );
  await expectStillServing(server, token);
  expect(await jobCount()).toBe(before);
});

test('truncated, garbage and non-tar archives fail their job; nothing changes', async () => {
  const truncated = await restore(archive.subarray(0, Math.floor(archive.length / 2)));
  expect(truncated.status).toBe('failed');
  expect(truncated.error).toMatch(/not a valid gzip stream \(corrupt or truncated\)/);
  await expectStillServing(server, token);

  const garbage = await restore(randomBytes(300_000));
  expect(garbage.status).toBe('failed');
  expect(garbage.error).toMatch(/not a valid gzip stream/);
  await expectStillServing(server, token);

  const notTar = await restore(gzipSync(randomBytes(300_000)));
  expect(notTar.status).toBe('failed');
  expect(notTar.error).toMatch(/not a valid tar stream/);
  await expectStillServing(server, token);
  await expectDataUntouched();
});

test('a small archive with a manifest far over its bound fails its job at once', async () => {
  const hostile = await tarGz([], {
    name: 'manifest.json',
    declared: 255 * 1024 * 1024,
    data: Buffer.from('{"format":"agora-backup","objects":['),
  });
  const job = await restore(hostile);
  expect(job.status).toBe('failed');
  expect(job.error).toMatch(/manifest\.json is 255\.0 MB; a manifest may be at most 16\.0 MB/);
  await expectStillServing(server, token);
  await expectDataUntouched();
});
