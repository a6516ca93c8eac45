/** A backup job: the archive is written to `backups/<name>` while it is produced. */
import { BACKUP_ARCHIVE_PREFIX } from '@agora/common/messaging';
import type { BackupContext } from './context';
import type { JobLease } from './lease';
import { archiveNameFor } from './archive/manifest';
import { writeArchive } from './archive/write';

export interface BackupOutcome {
  archiveKey: string;
  archiveName: string;
  archiveSize: number;
  archiveSha256: string;
  counts: Record<string, number>;
}

export async function runBackup(ctx: BackupContext, lease: JobLease): Promise<BackupOutcome> {
  const archiveName = archiveNameFor(new Date());
  const archiveKey = `${BACKUP_ARCHIVE_PREFIX}${archiveName}`;
  lease.progress({ stage: 'collections', pct: 0, counts: {} }, true);
  try {
    const written = await writeArchive(ctx, lease, archiveKey);
    lease.check();
    return {
      archiveKey,
      archiveName,
      archiveSize: written.size,
      archiveSha256: written.sha256,
      counts: written.counts,
    };
  } catch (err) {
    // A failed upload stores nothing; this also covers a failure after the upload completed.
    await ctx.storage.delete(archiveKey).catch(() => undefined);
    throw err;
  }
}
