import { createService, type ServiceApp } from '@agora/common/service';
import type { Config } from '@agora/common/config';
import type { SharedDeps } from '@agora/common/runtime';
import { createBackupContext, type BackupContext } from './context';
import { startWorker } from './worker';
import { serveHealth } from './health';

/**
 * The backup worker process (no public routes): runs backup and restore jobs. On its own it
 * answers GET /health on PORT for the probes; inside standalone (`shared`) it does not.
 */
export function createApp(config: Config, opts: { shared?: SharedDeps } = {}): ServiceApp {
  return createService<BackupContext>(
    {
      name: 'backup',
      buildContext: createBackupContext,
      async onStart(rt, ctx) {
        const worker = await startWorker(ctx);
        const probes = {
          mongodb: async () => ({ ok: await rt.db.ping() }),
          bus: () => rt.bus.health(),
        };
        const health = opts.shared
          ? undefined
          : await serveHealth(probes, rt.db.engine.kind, config.PORT, config.HOST);
        return async () => {
          await health?.close();
          await worker.stop();
        };
      },
    },
    config,
    opts,
  );
}
