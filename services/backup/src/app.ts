import { createService, type ServiceApp } from '@agora/common/service';
import type { Config } from '@agora/common/config';
import type { SharedDeps } from '@agora/common/runtime';
import { createBackupContext, type BackupContext } from './context';
import { startWorker } from './worker';

/** The backup worker process (no public routes): runs backup and restore jobs. */
export function createApp(config: Config, opts: { shared?: SharedDeps } = {}): ServiceApp {
  return createService<BackupContext>(
    {
      name: 'backup',
      buildContext: createBackupContext,
      async onStart(_rt, ctx) {
        const worker = await startWorker(ctx);
        return () => worker.stop();
      },
    },
    config,
    opts,
  );
}
