import { join } from 'node:path';
import type { Config } from '@agora/common/config';
import { startRelay } from '@agora/common/messaging';
import type { SharedDeps } from '@agora/common/runtime';
import { createService, type ServiceApp } from '@agora/common/service';
import { bootstrap, type BootstrapOptions } from './bootstrap';
import type { SocialContext } from './context';
import { startUserCopies } from './consumers/user-copies';
import { startInbox } from './consumers/inbox';
import { startGc } from './workers/gc';
import { backfillIfEmpty } from './search/indexer';
import { closePreviewClient } from './preview/service';

export function createApp(
  config: Config,
  opts: { shared?: SharedDeps; port?: number; host?: string; bootstrap?: BootstrapOptions } = {},
): ServiceApp {
  return createService<SocialContext>(
    {
      name: 'social',
      routesDir: join(__dirname, 'routes'),
      buildContext: (rt) => ({ rt }),
      async onStart(rt) {
        await bootstrap(rt, opts.bootstrap);
        await startUserCopies(rt);
        await startInbox(rt);
        // In the background: a large database must not hold up the start.
        void backfillIfEmpty(rt).then(
          (n) => n && rt.logger.info({ indexed: n }, 'search index built'),
          (err: Error) => rt.logger.warn({ err: err.message }, 'search index backfill failed'),
        );
        const stopRelay = startRelay(rt);
        const stopGc = startGc(rt);
        return async () => {
          await stopRelay();
          await stopGc();
          closePreviewClient(rt);
        };
      },
    },
    config,
    opts,
  );
}
