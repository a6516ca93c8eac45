import { join } from 'node:path';
import type { Config } from '@agora/common/config';
import type { SharedDeps } from '@agora/common/runtime';
import { createService, type ServiceApp } from '@agora/common/service';
import { startConsumer } from './consumer';
import { startLive } from './live';
import { createNotificationsContext, type NotificationsContext } from './context';

/** Notifications service: `/notifications`, `/users/:id/notifications`, the event consumer and the live streams. */
export function createApp(
  config: Config,
  opts: { shared?: SharedDeps; port?: number; host?: string } = {},
): ServiceApp {
  return createService<NotificationsContext>(
    {
      name: 'notifications',
      keepsObjects: false,
      routesDir: join(__dirname, 'routes'),
      buildContext: createNotificationsContext,
      async onStart(_rt, ctx) {
        // Idempotency and grouping rest on the collection's unique indexes (eventId, a group's
        // places): build them before the first event, whether or not social has started yet.
        await ctx.stores.notifications.prepare();
        await startConsumer(ctx);
        return startLive(ctx);
      },
    },
    config,
    opts,
  );
}
