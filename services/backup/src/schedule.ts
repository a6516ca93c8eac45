/**
 * A scheduled backup (deploy/k8s's backup-schedule CronJob, `backup-now` in the image): queues
 * a backup job exactly as POST /admin/backup does (the one slot, then a `backup.run` message
 * for the workers), then waits for it to end, so the CronJob's Job succeeds only when the
 * backup did. Retention (BACKUP_KEEP) runs in the worker after each successful backup.
 */
import type { BackupJobRecord, BackupJobsStore } from '@agora/common/db';
import type { Logger } from '@agora/common/logger';
import { BACKUP_RUN_QUEUE, type EventBus } from '@agora/common/messaging';

export const SCHEDULE_REQUESTER = 'backup-schedule';

export class ScheduleError extends Error {}

/** What the task uses of its runtime (schedule-main.ts builds it). */
export interface ScheduleDeps {
  jobs: BackupJobsStore;
  events: EventBus;
  logger: Logger;
}

export async function scheduledBackup(
  rt: ScheduleDeps,
  opts: { pollMs?: number; timeoutMs: number },
): Promise<BackupJobRecord> {
  const jobs = rt.jobs;
  const queued = await jobs.queue('backup', SCHEDULE_REQUESTER);
  if ('conflict' in queued)
    throw new ScheduleError(
      `another backup or restore job is in flight (${queued.conflict?._id ?? 'unknown'}): nothing queued`,
    );
  const jobId = queued.job._id;
  try {
    await rt.events.enqueue(BACKUP_RUN_QUEUE, { jobId }, { id: jobId });
  } catch (err) {
    await jobs.fail(jobId, null, 'the job could not be queued (message broker unavailable)');
    throw err;
  }
  rt.logger.info({ job: jobId }, 'scheduled backup queued');
  const until = Date.now() + opts.timeoutMs;
  for (;;) {
    const job = await jobs.findById(jobId);
    if (!job) throw new ScheduleError(`backup job ${jobId} disappeared`);
    if (job.status === 'done') return job;
    if (job.status === 'failed') throw new ScheduleError(`backup job ${jobId} failed: ${job.error ?? ''}`);
    if (Date.now() > until)
      throw new ScheduleError(`backup job ${jobId} still ${job.status} after the timeout`);
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 5000));
  }
}
