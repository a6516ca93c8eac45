/**
 * Backup retention (BACKUP_KEEP, docs/operations.md "Backups"): after a backup has finished,
 * the finished backups beyond the newest BACKUP_KEEP lose their archive and their job record,
 * as DELETE /admin/backup/:id would. 0 keeps everything. A failure here never fails the backup
 * that just succeeded: it is logged, and the next backup tries again.
 */
import type { BackupContext } from './context';

export async function pruneBackups(ctx: BackupContext): Promise<number> {
  const keep = ctx.config.BACKUP_KEEP;
  if (keep <= 0) return 0;
  let removed = 0;
  const past = await ctx.stores.backupJobs.backupsBeyond(keep).catch((err: Error) => {
    ctx.logger.warn({ err: err.message }, 'backup retention: could not list backups');
    return [];
  });
  for (const job of past) {
    try {
      await ctx.storage.delete(job.archiveKey!);
      await ctx.stores.backupJobs.remove(job._id);
      removed++;
    } catch (err) {
      ctx.logger.warn({ job: job._id, err: (err as Error).message }, 'backup retention: could not delete');
    }
  }
  if (removed) ctx.logger.info({ removed, keep }, 'backup retention: older backups deleted');
  return removed;
}
