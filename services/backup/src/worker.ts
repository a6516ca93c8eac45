/**
 * The backup worker (decisions.md §8): consumes `backup.run` and `restore.run`, runs one job at
 * a time across every replica through the slot's lease, and sweeps for jobs whose worker died.
 *
 * A message is acknowledged as soon as its job is leased (a backup may outlast RabbitMQ's
 * consumer timeout); from then on the lease, not the message, keeps the job safe: a worker
 * that dies stops renewing it, and once it has lapsed any replica's sweeper fails the job (its
 * partial archive is never `done`) and frees the queue. A job whose message was lost (the
 * in-process bus of a process that stopped) is picked up by the sweeper.
 */
import { newWorkerId, type BackupJobRecord } from '@agora/common/db';
import { backupMetrics } from '@agora/common/metrics';
import { BACKUP_RUN_QUEUE, RESTORE_RUN_QUEUE, type JobMessage } from '@agora/common/messaging';
import type { BackupContext } from './context';
import { JobLease } from './lease';
import { runBackup } from './backup';
import { runRestore } from './restore/run';
import { pruneBackups } from './retention';

export interface BackupWorker {
  readonly owner: string;
  stop(): Promise<void>;
}

export async function startWorker(ctx: BackupContext): Promise<BackupWorker> {
  const owner = newWorkerId();
  backupMetrics(); // exported from the start: 0 running, no jobs yet
  const leaseMs = ctx.config.BACKUP_LEASE_SECONDS * 1000;
  const jobs = ctx.stores.backupJobs;
  let current: { lease: JobLease; done: Promise<void> } | undefined;
  let stopping = false;

  /** Leases the job and starts it in the background; returns once it is leased (or not ours). */
  const take = async (jobId: string): Promise<void> => {
    if (stopping || current) return;
    const outcome = await jobs.acquire(jobId, owner, leaseMs);
    if (outcome !== 'acquired') {
      ctx.logger.debug({ job: jobId, outcome }, 'backup job not taken');
      return;
    }
    const job = await jobs.findById(jobId);
    const lease = new JobLease(ctx, jobId, owner);
    const done = run(ctx, lease, job!).finally(() => {
      lease.stop();
      current = undefined;
    });
    current = { lease, done };
  };

  // The typed bus has parsed the job against the catalogue (a malformed one is dead-lettered).
  const onMessage = (msg: JobMessage<'backup.run' | 'restore.run'>): Promise<void> => take(msg.payload.jobId);
  await ctx.events.work(BACKUP_RUN_QUEUE, onMessage, { prefetch: 1 });
  await ctx.events.work(RESTORE_RUN_QUEUE, onMessage, { prefetch: 1 });

  let sweeping: Promise<void> | undefined;
  const sweep = async () => {
    const s = await jobs.inspect(2 * leaseMs);
    if (s.state === 'expired') {
      const failed = await jobs.failExpired(
        s.jobId,
        s.owner,
        s.until,
        `the worker running this job (${s.owner}) stopped renewing its lease at ${s.until.toISOString()} ` +
          '(killed, crashed or cut off); the job was abandoned and nothing it wrote counts',
      );
      if (failed)
        ctx.logger.warn({ job: s.jobId, deadOwner: s.owner }, 'backup job abandoned by its worker: failed');
    } else if (s.state === 'orphaned') {
      ctx.logger.warn({ job: s.jobId }, 'pending backup job without a worker: taking it');
      await take(s.jobId);
    } else if (s.state === 'stale') {
      await jobs.releaseStale(s.jobId);
    }
    const unqueued = await jobs.failUnqueued(2 * leaseMs);
    if (unqueued) ctx.logger.warn({ jobs: unqueued }, 'pending backup jobs that never held the slot: failed');
  };
  const timer = setInterval(
    () => {
      if (sweeping || stopping) return;
      sweeping = sweep()
        .catch((err: Error) => ctx.logger.warn({ err: err.message }, 'backup sweep failed'))
        .finally(() => {
          sweeping = undefined;
        });
    },
    Math.max(500, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  ctx.logger.info({ owner }, 'backup worker ready');

  return {
    owner,
    async stop() {
      stopping = true;
      clearInterval(timer);
      await sweeping;
      // A job cannot finish within a shutdown grace period: stop it, it ends `failed`.
      current?.lease.abort(new Error('the worker was shut down during the job'));
      await current?.done;
    },
  };
}

async function run(ctx: BackupContext, lease: JobLease, job: BackupJobRecord): Promise<void> {
  const jobId = lease.jobId;
  const log = ctx.logger.child({ job: jobId, type: job.type });
  log.info('backup job started');
  const ended = backupMetrics().started(job.type);
  try {
    if (job.type === 'backup') {
      const out = await runBackup(ctx, lease);
      await lease.flush();
      const ok = await ctx.stores.backupJobs.finish(jobId, lease.owner, {
        archiveKey: out.archiveKey,
        archiveName: out.archiveName,
        archiveSize: out.archiveSize,
        archiveSha256: out.archiveSha256,
        progress: { stage: 'done', pct: 100, counts: out.counts },
      });
      // Taken over meanwhile: the job is failed, so its archive must not stay around.
      if (!ok) await ctx.storage.delete(out.archiveKey).catch(() => undefined);
      log.info({ archive: out.archiveKey, size: out.archiveSize, ok }, 'backup job ended');
      ended(ok ? 'succeeded' : 'failed');
      if (ok) await pruneBackups(ctx);
    } else {
      const out = await runRestore(ctx, lease, job);
      await lease.flush();
      await ctx.stores.backupJobs.finish(jobId, lease.owner, {
        result: out.result,
        progress: { stage: 'done', pct: 100, counts: out.counts },
      });
      await dropUpload(ctx, job);
      log.info({ result: out.result }, 'restore job ended');
      ended('succeeded');
    }
  } catch (err) {
    const reason = lease.signal.aborted ? (lease.signal.reason as Error).message : (err as Error).message;
    log.warn({ err: reason, stack: (err as Error).stack }, 'backup job failed');
    ended('failed');
    await lease.flush();
    await ctx.stores.backupJobs
      .fail(jobId, lease.owner, reason)
      .catch((e: Error) => log.error({ err: e.message }, 'could not record the failure'));
    if (job.type === 'restore') await dropUpload(ctx, job);
  }
}

/** The uploaded archive of a restore is temporary: removed once the job ended either way. */
async function dropUpload(ctx: BackupContext, job: BackupJobRecord): Promise<void> {
  if (job.archiveKey) await ctx.storage.delete(job.archiveKey).catch(() => undefined);
}
