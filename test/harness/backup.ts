/**
 * Helpers for the backup tests: content hashes of a whole database and a whole store (to compare
 * before and after a restore), job polling, and the restore upload as a real multipart body.
 */
import { createHash } from 'node:crypto';
import mongoose from 'mongoose';
import { BACKUP_JOBS, BACKUP_OWN_COLLECTIONS } from '@agora/common/db';
import { createS3Storage, type ObjectStorage } from '@agora/common/storage';
import { testEnv, uniqueName } from './env';
import type { client } from './standalone';

/** Never compared: the job records and the lease are not part of an archive. */
// The FerretDB sole-writer lease (renewed every 10 s) is the adapter's, not the application's.
const BOOKKEEPING = new Set<string>([...BACKUP_OWN_COLLECTIONS, 'engine_lease']);
const RAW = { promoteValues: false, promoteLongs: false, promoteBuffers: false, bsonRegExp: true };

/** collection → SHA-256 over its documents (canonical EJSON, every type kept), sorted by `_id`. */
export async function databaseHashes(mongoUrl: string): Promise<Record<string, string>> {
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  try {
    const db = conn.db!;
    const out: Record<string, string> = {};
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
    for (const name of names) {
      if (BOOKKEEPING.has(name) || name.startsWith('system.')) continue;
      const lines: Array<[string, string]> = [];
      for await (const doc of db.collection(name).find({}, RAW)) {
        const { EJSON } = mongoose.mongo.BSON;
        lines.push([EJSON.stringify(doc._id, { relaxed: false }), EJSON.stringify(doc, { relaxed: false })]);
      }
      lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const h = createHash('sha256');
      for (const [, l] of lines) h.update(`${l}\n`);
      out[name] = `${lines.length}:${h.digest('hex')}`;
    }
    return out;
  } finally {
    await conn.close();
  }
}

/** key → SHA-256 of every object outside the backup prefixes. */
export async function storeHashes(storage: ObjectStorage): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const o of storage.list()) {
    if (o.key.startsWith('backups/') || o.key.startsWith('restore-uploads/')) continue;
    const { body } = await storage.get(o.key);
    const h = createHash('sha256');
    for await (const c of body) h.update(c as Buffer);
    out[o.key] = h.digest('hex');
  }
  return out;
}

/** Drops every collection of a database. */
export async function wipeDatabase(mongoUrl: string): Promise<void> {
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  try {
    for (const c of await conn.db!.listCollections({}, { nameOnly: true }).toArray())
      await conn.db!.collection(c.name).drop();
  } finally {
    await conn.close();
  }
}

export async function wipeStore(storage: ObjectStorage): Promise<void> {
  for await (const o of storage.list()) await storage.delete(o.key);
}

/** A bucket of its own on the test S3 server, and the env that points a server at it. */
export function testBucket(): { env: Record<string, string>; storage: ObjectStorage } {
  const bucket = uniqueName('bk').replace(/_/g, '-');
  const env = {
    S3_ENDPOINT: testEnv.s3Endpoint,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY: testEnv.s3AccessKey,
    S3_SECRET_KEY: testEnv.s3SecretKey,
  };
  const storage = createS3Storage({
    endpoint: testEnv.s3Endpoint,
    region: 'us-east-1',
    bucket,
    accessKeyId: testEnv.s3AccessKey,
    secretAccessKey: testEnv.s3SecretKey,
    forcePathStyle: true,
  });
  return { env, storage };
}

export interface Job {
  id: string;
  type: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  progress: { stage: string; pct: number; counts: Record<string, number> };
  error: string | null;
  result: Record<string, unknown> | null;
  archiveName: string | null;
  archiveSize: number | null;
  archiveSha256: string | null;
}

/** Polls a job until it ended; throws with the last state when it did not within the time. */
export async function waitForJob(
  api: ReturnType<typeof client>,
  token: string,
  id: string,
  opts: { timeoutMs?: number; relogin?: () => Promise<string> } = {},
): Promise<Job> {
  const { timeoutMs = 60_000, relogin } = opts;
  const start = Date.now();
  let last: unknown;
  while (Date.now() - start < timeoutMs) {
    const res = await api.get<{ job: Job }>(`/admin/backup/${id}`, { token });
    // A restore swaps the settings (signing keys, admin circle): tokens and roles change under us.
    if ((res.status === 401 || res.status === 403) && relogin) {
      token = await relogin();
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    if (res.status !== 200) throw new Error(`GET job ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    last = res.body.job;
    if (res.body.job.status === 'done' || res.body.job.status === 'failed') return res.body.job;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`job ${id} did not end within ${timeoutMs} ms: ${JSON.stringify(last)}`);
}

/** POST /admin/backup/restore with the archive as multipart field `archive`. */
export async function uploadRestore(
  base: string,
  token: string,
  archive: Buffer,
  field = 'archive',
): Promise<{ status: number; body: { job?: Job; error?: string } }> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(archive)], { type: 'application/gzip' }), 'backup.tar.gz');
  const res = await fetch(`${base}/admin/backup/restore`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { job?: Job; error?: string } };
}

/** A job as recorded in the database (for a restore, which swaps the keys tokens are checked with). */
export async function waitForJobInDb(
  mongoUrl: string,
  id: string,
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  try {
    const start = Date.now();
    while (Date.now() - start < timeoutMs) {
      const job = await conn
        .db!.collection<{ _id: string; status?: string }>(BACKUP_JOBS.name)
        .findOne({ _id: id });
      if (job && (job.status === 'done' || job.status === 'failed')) return job;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`job ${id} did not end within ${timeoutMs} ms`);
  } finally {
    await conn.close();
  }
}
