/**
 * A restore job (decisions.md §8): verify everything, then stage, swap, clean up, keep the
 * requesting admin an admin who can log in, rebuild indexes and move every read-cache stamp.
 * The job's `result` records what was changed as it happens, so a restore that fails half-way
 * says which collections were replaced and how many objects were written.
 */
import { STAGING_PREFIX, type BackupJobRecord } from '@agora/common/db';
import type { WorkerDeps } from '../context';
import type { JobLease } from '../lease';
import { isArchivable } from '../archive/write';
import { stageArchive } from './stage';
import { swapCollections } from './swap';
import { verifyArchive } from './verify';

export interface RestoreResult {
  verified: boolean;
  replaced: string[];
  dropped: string[];
  objectsWritten: number;
  objectsDeleted: number;
  admin?: string;
}

export async function runRestore(
  rt: WorkerDeps,
  lease: JobLease,
  job: BackupJobRecord,
): Promise<{ result: RestoreResult; counts: Record<string, number> }> {
  const jobId = job._id.toHexString();
  const key = job.archiveKey;
  if (!key) throw new Error('the restore job names no archive');
  const result: RestoreResult = {
    verified: false,
    replaced: [],
    dropped: [],
    objectsWritten: 0,
    objectsDeleted: 0,
  };
  const record = () => rt.repos.backupJobs.setResult(jobId, lease.owner, { ...result });
  const store = rt.repos.collections;

  lease.progress({ stage: 'verify', pct: 0, counts: {} }, true);
  const manifest = await verifyArchive(rt, lease, key);
  result.verified = true;
  await record();

  // Staging collections of an earlier restore that died are of no use to anyone.
  for (const n of await store.scratchCollections()) if (n.startsWith(STAGING_PREFIX)) await store.drop(n);
  const tag = jobId.slice(-8);
  let staged: Map<string, string> | undefined;
  try {
    const s = await stageArchive(rt, lease, key, manifest, tag, (n) => {
      result.objectsWritten = n;
    });
    staged = s.collections;
    await record();

    // Before the swap: the requesting admin as they are now, to keep them able to log in.
    const requester = await rt.repos.users.snapshot(job.requestedBy);
    lease.progress({ stage: 'swap', pct: 86, counts: { collections: staged.size } }, true);
    const swapped = await swapCollections(rt, lease, tag, staged, async (r) => {
      result.replaced = [...r.replaced];
      result.dropped = [...r.dropped];
      await record();
    });
    staged = undefined;
    result.replaced = swapped.replaced;
    result.dropped = swapped.dropped;

    lease.progress({ stage: 'cleanup', pct: 92, counts: {} }, true);
    const archived = new Set(manifest.objects.map((o) => o.key));
    for await (const o of rt.storage.list()) {
      if (!isArchivable(o.key) || archived.has(o.key)) continue;
      await rt.storage.delete(o.key);
      result.objectsDeleted++;
    }
    await record();

    lease.progress({ stage: 'admin', pct: 95, counts: {} }, true);
    result.admin = await keepAdmin(rt, requester);
    lease.progress({ stage: 'indexes', pct: 97, counts: {} }, true);
    await store.rebuildModelIndexes();
    rt.repos.settings.invalidate();
    await rt.stamps.bumpAll();
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
async function keepAdmin(rt: WorkerDeps, requester: Record<string, unknown> | null): Promise<string> {
  if (!requester) return 'the requesting user did not exist before the restore';
  rt.repos.settings.invalidate();
  const state = await rt.repos.users.reinstate(requester);
  const circleId = await rt.repos.settings.get<string>('adminCircle');
  if (typeof circleId !== 'string' || !circleId)
    return `${state}; the restored database names no admin circle`;
  const profile = (requester.profile ?? {}) as { name?: string; icon?: string };
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const added = await rt.repos.circles.addMember(circleId, {
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
