/**
 * Backup and restore jobs (decisions.md §8) and the one lease that lets a single job run at a
 * time across every worker replica. Neither collection is ever archived or restored: a restore
 * must not overwrite the record of the restore that is running.
 */
import { Schema, type InferSchemaType } from 'mongoose';

export const BACKUP_JOB_TYPES = ['backup', 'restore'] as const;
export type BackupJobType = (typeof BACKUP_JOB_TYPES)[number];
export const BACKUP_JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type BackupJobStatus = (typeof BACKUP_JOB_STATUSES)[number];

export const backupJobSchema = new Schema(
  {
    type: { type: String, enum: BACKUP_JOB_TYPES, required: true },
    status: { type: String, enum: BACKUP_JOB_STATUSES, default: 'pending' },
    // The admin who asked for it (restore keeps this user an admin).
    requestedBy: { type: String, required: true },
    // { stage, pct, counts }: written as the job goes; Mixed so counts can name any collection.
    progress: { type: Schema.Types.Mixed, default: () => ({ stage: 'queued', pct: 0, counts: {} }) },
    // Backup: where the finished archive is. Restore: the uploaded archive it reads.
    archiveKey: String,
    archiveName: String,
    archiveSize: Number,
    archiveSha256: String,
    // The worker (process id + random) running it; the final write is conditional on it.
    owner: String,
    startedAt: Date,
    finishedAt: Date,
    error: String,
    // Restore: what it changed (collections replaced or dropped, objects written or deleted).
    result: { type: Schema.Types.Mixed },
  },
  { timestamps: true, collection: 'backupjobs', minimize: false },
);

// GET /admin/backup lists the 20 newest: the collection holds few rows (one per job).
backupJobSchema.index({ createdAt: -1 });

/**
 * The slot: one document (`_id: 'slot'`) naming the job in flight, the worker holding it and
 * until when. Claimed by the API when a job is queued (so two admins cannot queue two jobs),
 * leased by the worker that runs it, renewed while it runs, released when it ends.
 */
export const backupLeaseSchema = new Schema(
  {
    _id: { type: String, required: true },
    jobId: { type: String, default: null },
    owner: { type: String, default: null },
    until: { type: Date, default: null },
  },
  { collection: 'backuplease', versionKey: false },
);

export type BackupJobDoc = InferSchemaType<typeof backupJobSchema>;
export type BackupLeaseDoc = InferSchemaType<typeof backupLeaseSchema>;

/** Collections that belong to the backup machinery itself: never archived, never replaced. */
export const BACKUP_OWN_COLLECTIONS = ['backupjobs', 'backuplease'] as const;
