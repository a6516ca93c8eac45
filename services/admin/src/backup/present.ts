import type { BackupJobRecord } from '@agora/common/db';

/** The API shape of a job (the storage key and the worker's id stay internal). */
export function presentJob(job: BackupJobRecord): Record<string, unknown> {
  return {
    id: job._id,
    type: job.type,
    status: job.status,
    requestedBy: job.requestedBy,
    progress: job.progress,
    archiveName: job.archiveName ?? null,
    archiveSize: job.archiveSize ?? null,
    archiveSha256: job.archiveSha256 ?? null,
    error: job.error ?? null,
    result: job.result ?? null,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    startedAt: job.startedAt ?? null,
    finishedAt: job.finishedAt ?? null,
  };
}
