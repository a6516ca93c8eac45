/**
 * The backup and restore jobs (architecture.md: `backup.run`, `restore.run`), defined once for
 * the admin API that queues them and the backup worker that runs them. The message only names
 * the job: its state lives in the job record (`rt.repos.backupJobs`).
 */
import { z } from 'zod';

export const BACKUP_RUN_QUEUE = 'backup.run';
export const RESTORE_RUN_QUEUE = 'restore.run';

export const backupJobMessage = z.object({ jobId: z.string().regex(/^[0-9a-f]{24}$/, 'must be a job id') });
export type BackupJobMessage = z.infer<typeof backupJobMessage>;

/** Object-storage prefixes of the backup machinery: never archived themselves. */
export const BACKUP_ARCHIVE_PREFIX = 'backups/';
export const RESTORE_UPLOAD_PREFIX = 'restore-uploads/';

/** The upload limit of POST /admin/backup/restore (spec 4.5). */
export const RESTORE_UPLOAD_MAX_BYTES = 512 * 1024 * 1024;
