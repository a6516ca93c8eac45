import { join } from 'node:path';
import type { Config } from '@agora/common/config';
import type { SharedDeps } from '@agora/common/runtime';
import { createService, type ServiceApp } from '@agora/common/service';
import { createFederationContext, type FederationContext } from './context';
import { startPlanner } from './delivery/plan';
import { startDeliveryWorker } from './delivery/worker';
import { startPoller } from './poll/worker';

export function createApp(
  config: Config,
  opts: { shared?: SharedDeps; port?: number; host?: string } = {},
): ServiceApp {
  return createService<FederationContext>(
    {
      name: 'federation',
      routesDir: join(__dirname, 'routes'),
      buildContext: createFederationContext,
      outbox: true,
      async onStart(_rt, ctx) {
        await startPlanner(ctx);
        await startDeliveryWorker(ctx);
        return startPoller(ctx);
      },
    },
    config,
    opts,
  );
}
