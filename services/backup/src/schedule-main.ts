/**
 * Entry of `backup-now` (dist/backup-now.js): one scheduled backup, then exit 0 when it is
 * done, 1 when it failed or could not be queued, 2 on a bad configuration.
 */
import { loadConfig } from '@agora/common/config';
import { ConfigError } from '@agora/common/errors';
import { createRuntime } from '@agora/common/runtime';
import { scheduledBackup } from './schedule';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exitCode = 2;
    return;
  }
  const rt = await createRuntime('backup-schedule', config);
  try {
    // Within the CronJob's activeDeadlineSeconds (3 h), which stops the pod anyway.
    const deps = { jobs: rt.repos.backupJobs, events: rt.events, logger: rt.logger };
    const job = await scheduledBackup(deps, { timeoutMs: 3 * 3600_000 - 60_000 });
    rt.logger.info(
      { job: job._id, archive: job.archiveName, size: job.archiveSize },
      'scheduled backup done',
    );
  } catch (err) {
    rt.logger.error({ err: (err as Error).message }, 'scheduled backup failed');
    process.exitCode = 1;
  } finally {
    await rt.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
