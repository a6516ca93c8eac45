/**
 * Object-storage constants of the backup machinery, shared by the admin API and the backup
 * worker. (The `backup.run` and `restore.run` jobs themselves are in the catalogue.)
 */

/** Object-storage prefixes of the backup machinery: never archived themselves. */
export const BACKUP_ARCHIVE_PREFIX = 'backups/';
export const RESTORE_UPLOAD_PREFIX = 'restore-uploads/';

/** The upload limit of POST /admin/backup/restore (spec 4.5). */
export const RESTORE_UPLOAD_MAX_BYTES = 512 * 1024 * 1024;
