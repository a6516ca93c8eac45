import { join } from 'node:path';
import { createService, type Config, type ServiceApp, type SharedDeps } from '@agora/common';
import type { AdminContext } from './context';

export function createApp(
  config: Config,
  opts: { shared?: SharedDeps; port?: number; host?: string } = {},
): ServiceApp {
  return createService<AdminContext>(
    { name: 'admin', routesDir: join(__dirname, 'routes'), buildContext: (rt) => ({ rt }) },
    config,
    opts,
  );
}
