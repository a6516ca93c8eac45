import { join } from 'node:path';
import type { Config } from '@agora/common/config';
import type { SharedDeps } from '@agora/common/runtime';
import { createService, type ServiceApp } from '@agora/common/service';
import { createFederationContext, type FederationContext } from './context';
import { startDrainer } from './delivery/drain';
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
      keepsObjects: false,
      routesDir: join(__dirname, 'routes'),
      buildContext: createFederationContext,
      outbox: true,
      async onStart(_rt, ctx) {
        const drainer = startDrainer(ctx);
        await startPlanner(ctx);
        await startDeliveryWorker(ctx);
        const stopPolling = startPoller(ctx);
        return async () => {
          await stopPolling();
          await drainer.stop();
        };
      },
    },
    config,
    opts,
  );
}
