/**
 * Backup and restore end to end (decisions.md §8, quality-bars "Backups"): seed users, posts,
 * circles, groups, files and a collection with every awkward BSON type; back up through the
 * API; wipe the database and the bucket; restore into the fresh server; compare every document
 * and object by hash. Then the bit-flip cases (nothing changes) and the 409 rules. RabbitMQ and
 * S3 are real (a vhost and a bucket of this file). The CLI: backup-cli.test.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import mongoose from 'mongoose';
import tar from 'tar-stream';
import { Readable } from 'node:stream';
import { BACKUP_OWN_COLLECTIONS, USERS } from '@agora/common/db';
import { indexName as indexNameOf } from '@agora/common/db/engine';
import type { ObjectStorage } from '@agora/common/storage';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { createVhost, mongoUrlFor, uniqueName } from '../harness/env';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import {
  databaseHashes,
  storeHashes,
  testBucket,
  uploadRestore,
  waitForJob,
  waitForJobInDb,
  wipeDatabase,
  wipeStore,
  type Job,
} from '../harness/backup';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let alice: Actor;
/** A post with a content warning and the sensitive flag (ADR 0021): back after the restore. */
let warnedPost: string;
let storage: ObjectStorage;
let env: Record<string, string>;
let removeVhost: () => Promise<void>;
const mongoUrl = mongoUrlFor(uniqueName('e2e_backup'));

const as = (token: string) => ({ token });
const login = async (username: string, password: string) =>
  api.post<{ token: string }>('/auth/login', { username, password });

async function boot(): Promise<void> {
  server = await bootServer(env);
  api = client(server.url);
  const res = await login(ADMIN.username, ADMIN.password);
  if (res.status !== 200) throw new Error(`admin login: ${res.status}`);
  admin = res.body.token;
}

beforeAll(async () => {
  const vhost = await createVhost(uniqueName('backup'));
  removeVhost = vhost.remove;
  const bucket = testBucket();
  storage = bucket.storage;
  env = {
    ...bucket.env,
    AMQP_URL: vhost.url,
    MONGO_URL: mongoUrl,
    BACKUP_LEASE_SECONDS: '3',
    RATE_LIMITING_ENABLED: 'false',
  };
  await boot();
  alice = await registerActor(api, 'bk_alice');
  const bob = await registerActor(api, 'bk_bob');
  const circle = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'Close' },
  });
  if (circle.status !== 201) throw new Error(`circle: ${circle.status}`);
  for (let i = 0; i < 5; i++) {
    const p = await outbox(api, i % 2 ? bob : alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: {
        type: 'Note',
        content: `post **${i}** ✓ \u{1F600}`,
        ...(i === 0 ? { contentWarning: 'warned ✓', sensitive: true } : {}),
      },
    });
    if (p.status !== 201) throw new Error(`post: ${p.status}`);
    if (i === 0) warnedPost = p.body.createdId!;
  }
  const group = await outbox(api, bob, {
    type: 'Create',
    objectType: 'Group',
    to: '@public',
    object: { name: 'Club' },
  });
  if (group.status !== 201) throw new Error(`group: ${group.status}`);
  // Files and avatars: straight into the store (their routes are another issue).
  await storage.put('files/2026/a.bin', randomBytes(300_000), { contentType: 'application/octet-stream' });
  await storage.put('files/2026/empty.txt', Buffer.alloc(0), { contentType: 'text/plain' });
  await storage.put('avatars/bk_alice/ünïcødé name.png', randomBytes(20_000), { contentType: 'image/png' });
  await storage.put(`files/deep/${'x'.repeat(150)}/long-key.bin`, randomBytes(1000));
  // A collection no store declares, with every kind of value the engine port stores (strings with
  // line breaks and quotes, numbers past 2^31, nested arrays and objects, null, booleans, dates).
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  await conn.db!.collection<{ _id: string; [k: string]: unknown }>('zz_types').insertMany([
    {
      _id: 'typed',
      int: 7,
      big: 9007199254740991,
      double: 7.25,
      date: new Date('2020-02-29T12:00:00.123Z'),
      nested: { arr: [1, 'two', null, { three: true }], empty: {} },
      text: 'line\nbreak "quoted" \u2028',
    },
    { _id: 'string-id', n: null },
  ]);
  await conn.db!.createCollection('zz_empty');
  await conn.close();
});

afterAll(async () => {
  await server?.close();
  await wipeStore(storage).catch(() => undefined);
  await wipeDatabase(mongoUrl).catch(() => undefined);
  await removeVhost?.();
});

/** Waits until two snapshots a second apart agree (event consumers have settled). */
async function settledHashes(): Promise<Record<string, string>> {
  let prev = await databaseHashes(mongoUrl);
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const next = await databaseHashes(mongoUrl);
    if (JSON.stringify(next) === JSON.stringify(prev)) return next;
    prev = next;
  }
  throw new Error('the database did not settle');
}

async function entriesOf(archive: Buffer): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const extract = tar.extract();
  Readable.from([gunzipSync(archive)]).pipe(extract);
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const c of entry) parts.push(c as Buffer);
    out.set(entry.header.name, Buffer.concat(parts));
  }
  return out;
}

async function packArchive(entries: Map<string, Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, data] of entries) pack.entry({ name }, data);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const c of pack) parts.push(c as Buffer);
  return gzipSync(Buffer.concat(parts));
}

let archive: Buffer;
let dbBefore: Record<string, string>;
let storeBefore: Record<string, string>;
let backupJob: Job;

describe('backup', () => {
  test('POST queues one job (202), a second one is refused (409 with the job) until it ends', async () => {
    dbBefore = await settledHashes();
    storeBefore = await storeHashes(storage);
    expect(Object.keys(dbBefore)).toEqual(
      expect.arrayContaining(['users', 'posts', 'circles', 'groups', 'zz_types', 'zz_empty']),
    );

    const first = await api.post<{ job: Job }>('/admin/backup', undefined, as(admin));
    expect(first.status).toBe(202);
    expect(first.body.job).toMatchObject({ type: 'backup', status: 'pending' });
    const second = await api.post<{ error: string; job: Job }>('/admin/backup', undefined, as(admin));
    expect(second.status).toBe(409);
    expect(second.body.job.id).toBe(first.body.job.id);
    const restoreBusy = await uploadRestore(server.url, admin, Buffer.from('whatever'));
    expect(restoreBusy.status).toBe(409);

    backupJob = await waitForJob(api, admin, first.body.job.id);
    expect(backupJob.status).toBe('done');
    expect(backupJob.progress.pct).toBe(100);
    expect(backupJob.progress.counts).toMatchObject({ objects: 4 });
    expect(backupJob.archiveName).toMatch(/^backup-.*\.tar\.gz$/);
    // Nothing changed while it ran.
    expect(await databaseHashes(mongoUrl)).toEqual(dbBefore);
  });

  test('list, status, download (gzip, attachment) and the archive layout', async () => {
    const list = await api.get<{ jobs: Job[] }>('/admin/backup', as(admin));
    expect(list.status).toBe(200);
    expect(list.body.jobs[0]!.id).toBe(backupJob.id);

    const res = await fetch(`${server.url}/admin/backup/${backupJob.id}/download`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${backupJob.archiveName}"`);
    archive = Buffer.from(await res.arrayBuffer());
    expect(archive.length).toBe(backupJob.archiveSize);
    expect(createHash('sha256').update(archive).digest('hex')).toBe(backupJob.archiveSha256);

    const entries = await entriesOf(archive);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as {
      format: string;
      version: number;
      domain: string;
      collections: Array<{ name: string; documents: number; sha256: string }>;
      objects: Array<{ key: string; size: number; sha256: string }>;
    };
    expect(manifest).toMatchObject({ format: 'agora-backup', version: 3, domain: 'social.test' });
    const names = manifest.collections.map((c) => c.name);
    expect(names).toEqual(Object.keys(dbBefore).sort());
    // The stores' collections are archived; the backup machinery's own are not.
    expect(names).toEqual(expect.arrayContaining(['settings', 'idempotency_keys']));
    for (const own of BACKUP_OWN_COLLECTIONS) expect(names).not.toContain(own);
    for (const c of manifest.collections) {
      const file = entries.get(`db/${c.name}.jsonl`)!;
      expect(createHash('sha256').update(file).digest('hex')).toBe(c.sha256);
      expect(Number(dbBefore[c.name]!.split(':')[0])).toBe(c.documents);
    }
    expect(Object.fromEntries(manifest.objects.map((o) => [o.key, o.sha256]))).toEqual(storeBefore);
    // Values are relaxed Extended JSON, the same from either engine: dates keep their type.
    const types = entries.get('db/zz_types.jsonl')!.toString();
    expect(types).toContain('"date":{"$date":"2020-02-29T12:00:00.123Z"}');
    expect(types).toContain('"big":9007199254740991');
    // The archive itself is never archived again.
    expect([...entries.keys()].some((k) => k.startsWith('files/backups/'))).toBe(false);
  });

  test('status and download of unknown, malformed or unfinished jobs', async () => {
    for (const id of ['000000000000000000000000', 'not-an-id', '%24where', 'ffffffffffffffffffffffff0']) {
      expect((await api.get(`/admin/backup/${id}`, as(admin))).status).toBe(404);
      expect((await api.get(`/admin/backup/${id}/download`, as(admin))).status).toBe(404);
      expect((await api.call('DELETE', `/admin/backup/${id}`, as(admin))).status).toBe(404);
    }
    expect((await api.get('/admin/backup', as(alice.token))).status).toBe(403);
    expect((await api.post('/admin/backup', undefined)).status).toBe(401);
  });

  test('restore without a file is 400 and queues nothing', async () => {
    const none = await api.post<{ error: string }>('/admin/backup/restore', {}, as(admin));
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/archive/);
    const wrongField = await uploadRestore(server.url, admin, archive, 'file');
    expect(wrongField.status).toBe(400);
    const list = await api.get<{ jobs: Job[] }>('/admin/backup', as(admin));
    expect(list.body.jobs.filter((j) => j.type === 'restore')).toEqual([]);
  });
});

describe('restore', () => {
  test('wipe the database and the bucket, restore into the fresh server: every document and object is back', async () => {
    await server.close();
    await wipeDatabase(mongoUrl);
    await wipeStore(storage);
    // A fresh server on the wiped database and bucket bootstraps new keys, settings and admin.
    await boot();
    expect(await storeHashes(storage)).toEqual({});
    expect(await databaseHashes(mongoUrl)).not.toEqual(dbBefore);

    const up = await uploadRestore(server.url, admin, archive);
    expect(up.status).toBe(202);
    expect(up.body.job).toMatchObject({ type: 'restore', status: 'pending' });
    // Followed in the database: the restore swaps the signing keys (the admin's token stops
    // working) and a new login would change the admin's lastLogin before the comparison.
    const job = (await waitForJobInDb(mongoUrl, up.body.job!.id)) as unknown as Job;
    expect([job.status, job.error]).toEqual(['done', undefined]);
    expect(job.result).toMatchObject({ verified: true, objectsWritten: 4, admin: 'unchanged' });
    expect((job.result!.replaced as string[]).sort()).toEqual(Object.keys(dbBefore).sort());

    expect(await databaseHashes(mongoUrl)).toEqual(dbBefore);
    expect(await storeHashes(storage)).toEqual(storeBefore);
    const warned = await api.get<Record<string, unknown>>(`/posts/${encodeURIComponent(warnedPost)}`);
    expect(warned.body).toMatchObject({ contentWarning: 'warned ✓', sensitive: true });
    // The uploaded archive was temporary.
    const left: string[] = [];
    for await (const o of storage.list('restore-uploads/')) left.push(o.key);
    expect(left).toEqual([]);
  });

  test('after the restore: users log in with their archived passwords, the admin is still admin, the declared indexes exist', async () => {
    // The restored settings hold the archived keys; services pick them up within their cache TTL.
    let res = await login(ADMIN.username, ADMIN.password);
    for (let i = 0; i < 40 && res.status === 200; i++) {
      const who = await api.get('/admin/whoami', as(res.body.token));
      if (who.status === 200) break;
      await new Promise((r) => setTimeout(r, 250));
      res = await login(ADMIN.username, ADMIN.password);
    }
    expect(res.status).toBe(200);
    admin = res.body.token;
    expect((await api.get('/admin/whoami', as(admin))).status).toBe(200);
    const a = await login('bk_alice', 'password123');
    expect(a.status).toBe(200);
    const posts = await api.get<{ totalItems: number }>('/posts', as(a.body.token));
    expect(posts.status).toBe(200);
    expect(posts.body.totalItems).toBeGreaterThanOrEqual(5);

    const conn = await mongoose.createConnection(mongoUrl).asPromise();
    const names = async (c: string) =>
      ((await conn.db!.collection(c).listIndexes().toArray()) as Array<{ name: string }>).map((i) => i.name);
    // Indexes are declared in code and rebuilt under their live names (ADR 0013).
    expect((await names('users')).filter((n) => n !== '_id_').sort()).toEqual(
      USERS.indexes.map((ix) => indexNameOf('users', ix)).sort(),
    );
    const scratch = (await conn.db!.listCollections({}, { nameOnly: true }).toArray()).filter((c) =>
      c.name.startsWith('__'),
    );
    await conn.close();
    expect(scratch).toEqual([]);
  });

  test('an archive from before migration 0001 (list rows keyed <list>|<item>, no migrations): the restore moves the rows, lists read as before', async () => {
    const a = await login('bk_alice', 'password123');
    const postsBefore = await api.get<{ totalItems: number; orderedItems?: unknown[] }>(
      '/posts',
      as(a.body.token),
    );
    const entries = await entriesOf(archive);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as {
      collections: Array<{ name: string; file: string; documents: number; bytes: number; sha256: string }>;
    };
    const lists = manifest.collections.find((c) => c.name === 'list_entries')!;
    const older = Buffer.from(
      entries
        .get(lists.file)!
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const row = JSON.parse(line) as { _id: string; list: string; item: string };
          return JSON.stringify({ ...row, _id: `${row.list}|${row.item}` });
        })
        .map((l) => `${l}\n`)
        .join(''),
    );
    entries.set(lists.file, older);
    Object.assign(lists, { bytes: older.length, sha256: createHash('sha256').update(older).digest('hex') });
    const recorded = manifest.collections.find((c) => c.name === 'migrations')!;
    entries.delete(recorded.file);
    manifest.collections = manifest.collections.filter((c) => c !== recorded);
    entries.set('manifest.json', Buffer.from(JSON.stringify(manifest)));

    const up = await uploadRestore(server.url, admin, await packArchive(entries));
    expect(up.status).toBe(202);
    const job = (await waitForJobInDb(mongoUrl, up.body.job!.id)) as unknown as Job;
    expect([job.status, job.error]).toEqual(['done', undefined]);

    const conn = await mongoose.createConnection(mongoUrl).asPromise();
    const rows = (await conn.db!.collection('list_entries').find({}).toArray()) as unknown as Array<{
      _id: string;
      list: string;
      item: string;
    }>;
    const applied = (await conn.db!.collection('migrations').find({}).toArray()) as unknown as Array<{
      _id: string;
      state: string;
    }>;
    await conn.close();
    expect(rows).toHaveLength(lists.documents);
    expect(rows.filter((r) => r._id !== `${r.item}|${r.list}`)).toEqual([]);
    expect(applied.map((m) => [m._id, m.state])).toEqual([['0001-list-keys-item-first', 'done']]);
    const postsAfter = await api.get<{ totalItems: number; orderedItems?: unknown[] }>(
      '/posts',
      as(a.body.token),
    );
    expect(postsAfter.status).toBe(200);
    expect(postsAfter.body).toEqual(postsBefore.body);
  });

  test('a single flipped byte fails the restore with a clear reason and changes nothing', async () => {
    const dbNow = await databaseHashes(mongoUrl);
    const storeNow = await storeHashes(storage);
    await storage.put('files/after-backup.txt', 'written after the backup');

    // 1. A byte of the compressed stream.
    const flipped = Buffer.from(archive);
    flipped[Math.floor(flipped.length / 2)]! ^= 0x01;
    const up1 = await uploadRestore(server.url, admin, flipped);
    expect(up1.status).toBe(202);
    const j1 = await waitForJob(api, admin, up1.body.job!.id);
    expect(j1.status).toBe('failed');
    expect(j1.error).toMatch(
      /^the archive is not a valid (gzip|tar) stream \(corrupt or truncated\)|SHA-256/,
    );

    // 2. A byte inside a collection's file, the gzip rebuilt so only the checksum can tell.
    const entries = await entriesOf(archive);
    const users = Buffer.from(entries.get('db/users.jsonl')!);
    const at = users.indexOf('bk_alice');
    users[at] = 'B'.charCodeAt(0);
    entries.set('db/users.jsonl', users);
    const up2 = await uploadRestore(server.url, admin, await packArchive(entries));
    const j2 = await waitForJob(api, admin, up2.body.job!.id);
    expect(j2.status).toBe('failed');
    expect(j2.error).toBe(
      'db/users.jsonl: SHA-256 or size does not match the manifest (the archive was altered)',
    );
    expect(j2.result).toBeNull();

    // 3. Another server's archive.
    const original = await entriesOf(archive);
    const manifest = JSON.parse(original.get('manifest.json')!.toString()) as Record<string, unknown>;
    original.set('manifest.json', Buffer.from(JSON.stringify({ ...manifest, domain: 'other.example' })));
    const up3 = await uploadRestore(server.url, admin, await packArchive(original));
    const j3 = await waitForJob(api, admin, up3.body.job!.id);
    expect(j3.error).toMatch(/from other\.example; this server is social\.test/);

    // 4. Not an archive at all.
    const up4 = await uploadRestore(server.url, admin, Buffer.from('plain text, not gzip'));
    expect((await waitForJob(api, admin, up4.body.job!.id)).error).toMatch(/not a valid gzip/);

    expect(await databaseHashes(mongoUrl)).toEqual(dbNow);
    expect(Object.keys(await storeHashes(storage)).sort()).toEqual(
      [...Object.keys(storeNow), 'files/after-backup.txt'].sort(),
    );
    const after = await storeHashes(storage);
    for (const [k, v] of Object.entries(storeNow)) expect(after[k]).toBe(v);
  });

  test('DELETE removes a finished job and its archive; jobs in flight cannot be deleted', async () => {
    const queued = await api.post<{ job: Job }>('/admin/backup', undefined, as(admin));
    expect(queued.status).toBe(202);
    const early = await api.call('DELETE', `/admin/backup/${queued.body.job.id}`, as(admin));
    const after = await api.get<{ job: Job }>(`/admin/backup/${queued.body.job.id}`, as(admin));
    // Still in flight after the DELETE answered, so it was in flight when it arrived: refused.
    if (after.body.job.status === 'pending' || after.body.job.status === 'running')
      expect(early.status).toBe(409);
    const done = await waitForJob(api, admin, queued.body.job.id);
    expect(done.status).toBe('done');
    const keys = async () => {
      const out: string[] = [];
      for await (const o of storage.list('backups/')) out.push(o.key);
      return out;
    };
    expect(await keys()).toContain(`backups/${done.archiveName}`);
    const del = await api.call('DELETE', `/admin/backup/${done.id}`, as(admin));
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true });
    expect(await keys()).not.toContain(`backups/${done.archiveName}`);
    expect((await api.get(`/admin/backup/${done.id}`, as(admin))).status).toBe(404);
  });
});
