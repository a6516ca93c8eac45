/**
 * A restore job (decisions.md §8): verify everything, then stage, swap, clean up, keep the
 * requesting admin an admin who can log in, rebuild indexes and move every read-cache stamp.
 * The job's `result` records what was changed as it happens, so a restore that fails half-way
 * says which collections were replaced and how many objects were written.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STAGING_PREFIX, type BackupJobRecord, type StoredUser } from '@agora/common/db';
import { flow, guard } from '@agora/common/streams';
import type { BackupContext } from '../context';
import type { JobLease } from '../lease';
import { isArchivable } from '../archive/write';
import { stageArchive } from './stage';
import { swapCollections } from './swap';
import { counting, verifyArchive, type LocalArchive } from './verify';

export interface RestoreResult {
  verified: boolean;
  replaced: string[];
  dropped: string[];
  objectsWritten: number;
  objectsDeleted: number;
  admin?: string;
}

export async function runRestore(
  ctx: BackupContext,
  lease: JobLease,
  job: BackupJobRecord,
): Promise<{ result: RestoreResult; counts: Record<string, number> }> {
  const jobId = job._id;
  const key = job.archiveKey;
  if (!key) throw new Error('the restore job names no archive');
  const result: RestoreResult = {
    verified: false,
    replaced: [],
    dropped: [],
    objectsWritten: 0,
    objectsDeleted: 0,
  };
  const record = () => ctx.stores.backupJobs.setResult(jobId, lease.owner, { ...result });

  const spool = await mkdtemp(join(tmpdir(), 'agora-restore-'));
  try {
    const archive = await download(ctx, lease, key, join(spool, 'archive.tar.gz'));
    return await restoreFrom(ctx, lease, job, archive, result, record);
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

/**
 * A local copy first: both passes then read the very bytes that were verified, and no object
 * storage connection is held open across the slow parts (a stalled GET gets cut by the server).
 */
async function download(
  ctx: BackupContext,
  lease: JobLease,
  key: string,
  path: string,
): Promise<LocalArchive> {
  lease.progress({ stage: 'download', pct: 0, counts: {} }, true);
  const { body, info } = await ctx.storage.get(key);
  const counts = { bytes: 0 };
  await flow(
    [
      counting(body, (n) => {
        counts.bytes = n;
        lease.progress({ stage: 'download', pct: (20 * n) / Math.max(1, info.size), counts });
      }),
      createWriteStream(path),
    ],
    { signal: lease.signal },
  );
  const { size } = await stat(path);
  return { open: () => guard(createReadStream(path)), size };
}

async function restoreFrom(
  ctx: BackupContext,
  lease: JobLease,
  job: BackupJobRecord,
  archive: LocalArchive,
  result: RestoreResult,
  record: () => Promise<void>,
): Promise<{ result: RestoreResult; counts: Record<string, number> }> {
  const jobId = job._id;
  const store = ctx.stores.collections;
  lease.progress({ stage: 'verify', pct: 20, counts: {} }, true);
  const manifest = await verifyArchive(ctx, lease, archive);
  result.verified = true;
  await record();

  // Staging collections of an earlier restore that died are of no use to anyone.
  for (const n of await store.scratchCollections()) if (n.startsWith(STAGING_PREFIX)) await store.drop(n);
  const tag = jobId.slice(-8);
  let staged: Map<string, string> | undefined;
  try {
    const s = await stageArchive(ctx, lease, archive, manifest, tag, (n) => {
      result.objectsWritten = n;
    });
    staged = s.collections;
    await record();

    // Before the swap: the requesting admin as they are now, to keep them able to log in.
    const requester = await ctx.stores.users.snapshot(job.requestedBy);
    lease.progress({ stage: 'swap', pct: 86, counts: { collections: staged.size } }, true);
    const swapped = await swapCollections(ctx, lease, tag, staged, async (r) => {
      result.replaced = [...r.replaced];
      result.dropped = [...r.dropped];
      await record();
    });
    staged = undefined;
    result.replaced = swapped.replaced;
    result.dropped = swapped.dropped;

    lease.progress({ stage: 'cleanup', pct: 92, counts: {} }, true);
    const archived = new Set(manifest.objects.map((o) => o.key));
    for await (const o of ctx.storage.list()) {
      if (!isArchivable(o.key) || archived.has(o.key)) continue;
      await ctx.storage.delete(o.key);
      result.objectsDeleted++;
    }
    await record();

    lease.progress({ stage: 'admin', pct: 95, counts: {} }, true);
    result.admin = await keepAdmin(ctx, requester);
    lease.progress({ stage: 'indexes', pct: 97, counts: {} }, true);
    // Every model's indexes, then the migrations the archive's `migrations` does not record
    // (ADR 0032): an archive from before a data-shape change is moved to the current one.
    await ctx.stores.prepare();
    ctx.stores.settings.invalidate();
    await ctx.stamps.bumpAll();
    await record();
  } finally {
    if (staged) for (const name of staged.values()) await store.drop(name).catch(() => undefined);
  }
  return {
    result,
    counts: {
      collections: manifest.collections.length,
      documents: manifest.collections.reduce((n, c) => n + c.documents, 0),
      objects: manifest.objects.length,
    },
  };
}

/** The requesting admin stays a user who can log in and stays in the admin circle. */
async function keepAdmin(ctx: BackupContext, requester: StoredUser | null): Promise<string> {
  if (!requester) return 'the requesting user did not exist before the restore';
  ctx.stores.settings.invalidate();
  const state = await ctx.stores.users.reinstate(requester);
  const circleId = await ctx.stores.settings.get<string>('adminCircle');
  if (typeof circleId !== 'string' || !circleId)
    return `${state}; the restored database names no admin circle`;
  const profile = (requester.profile ?? {}) as { name?: string; icon?: string };
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const added = await ctx.stores.circles.addMember(circleId, {
    id: String(requester.id),
    type: 'Person',
    name: profile.name ?? text(requester.username),
    icon: profile.icon ?? '',
    url: text(requester.url),
    inbox: text(requester.inbox),
    outbox: text(requester.outbox),
    server: text(requester.server),
  });
  return `${state}${added ? '; added back to the admins' : ''}`;
}
