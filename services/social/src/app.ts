import { join } from 'node:path';
import type { Config } from '@agora/common/config';
import type { SharedDeps } from '@agora/common/runtime';
import { createService, type ServiceApp } from '@agora/common/service';
import { bootstrap, type BootstrapOptions } from './bootstrap';
import { createSocialContext, type SocialContext } from './context';
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
      buildContext: createSocialContext,
      outbox: true,
      // bootstrap prepares the database: collections, indexes, migrations.
      prepares: true,
      async onStart(_rt, ctx) {
        await bootstrap(ctx, opts.bootstrap);
        await startUserCopies(ctx);
        await startInbox(ctx);
        // In the background: a large database must not hold up the start.
        void backfillIfEmpty(ctx).then(
          (n) => n && ctx.logger.info({ indexed: n }, 'search index built'),
          (err: Error) => ctx.logger.warn({ err: err.message }, 'search index backfill failed'),
        );
        const stopGc = startGc(ctx);
        return async () => {
          await stopGc();
          closePreviewClient(ctx);
        };
      },
    },
    config,
    opts,
  );
}
