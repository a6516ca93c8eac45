import { join } from 'node:path';
import type { Config } from '@agora/common/config';
import type { SharedDeps, Runtime } from '@agora/common/runtime';
import { createService, type ServiceApp } from '@agora/common/service';
import { startConsumer } from './consumer';

export interface NotificationsContext {
  rt: Runtime;
}

/** Notifications service: `/notifications`, `/users/:id/notifications` and the event consumer. */
export function createApp(
  config: Config,
  opts: { shared?: SharedDeps; port?: number; host?: string } = {},
): ServiceApp {
  return createService<NotificationsContext>(
    {
      name: 'notifications',
      routesDir: join(__dirname, 'routes'),
      buildContext: (rt) => ({ rt }),
      async onStart(rt) {
        // Idempotency rests on the unique eventId index: build it (and list any unlisted
        // notification) before the first event.
        await rt.repos.notifications.prepare();
        await startConsumer(rt);
      },
    },
    config,
    opts,
  );
}
