/** The backup worker's state (services/backup): jobs by type and outcome, running, last success. */
import { family } from './registry';

export type JobType = 'backup' | 'restore';

export interface BackupMetrics {
  /** Marks a job running; the returned function records how it ended (once). */
  started(type: JobType): (outcome: 'succeeded' | 'failed') => void;
}

export function backupMetrics(): BackupMetrics {
  const jobs = family('counter', 'agora_backup_jobs_total', {
    help: 'Backup and restore jobs this worker ended, by type and outcome (succeeded, failed).',
    labelNames: ['type', 'outcome'],
  });
  const running = family('gauge', 'agora_backup_running', {
    help: 'Jobs this worker is running now, by type.',
    labelNames: ['type'],
  });
  const lastSuccess = family('gauge', 'agora_backup_last_success_timestamp_seconds', {
    help: 'When this worker last finished a job successfully (Unix seconds), by type; absent until then.',
    labelNames: ['type'],
  });
  for (const type of ['backup', 'restore']) {
    running.set({ type }, 0);
    for (const outcome of ['succeeded', 'failed']) jobs.inc({ type, outcome }, 0);
  }
  return {
    started(type) {
      running.inc({ type });
      let done = false;
      return (outcome) => {
        if (done) return; // the first outcome counts (a failure to record it comes after)
        done = true;
        running.dec({ type });
        jobs.inc({ type, outcome });
        if (outcome === 'succeeded') lastSuccess.set({ type }, Date.now() / 1000);
      };
    },
  };
}
