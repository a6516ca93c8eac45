import { join } from 'node:path';
import { createService, type Config, type ServiceApp, type SharedDeps } from '@agora/common';
import type { FederationContext } from './context';

export function createApp(
  config: Config,
  opts: { shared?: SharedDeps; port?: number; host?: string } = {},
): ServiceApp {
  return createService<FederationContext>(
    { name: 'federation', routesDir: join(__dirname, 'routes'), buildContext: (rt) => ({ rt }) },
    config,
    opts,
  );
}
