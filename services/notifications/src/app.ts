import { join } from 'node:path';
import { createService, type Config, type ServiceApp, type SharedDeps, type Runtime } from '@agora/common';

export interface NotificationsContext {
  rt: Runtime;
}

/** Notifications service: its routes and the event consumer arrive with the notifications issue. */
export function createApp(
  config: Config,
  opts: { shared?: SharedDeps; port?: number; host?: string } = {},
): ServiceApp {
  return createService<NotificationsContext>(
    { name: 'notifications', routesDir: join(__dirname, 'routes'), buildContext: (rt) => ({ rt }) },
    config,
    opts,
  );
}
