import { join } from 'node:path';
import type { Config } from '@agora/common/config';
import type { SharedDeps } from '@agora/common/runtime';
import { createService, type ServiceApp } from '@agora/common/service';
import { createAdminContext, type AdminContext } from './context';

export function createApp(
  config: Config,
  opts: { shared?: SharedDeps; port?: number; host?: string } = {},
): ServiceApp {
  return createService<AdminContext>(
    { name: 'admin', routesDir: join(__dirname, 'routes'), buildContext: createAdminContext, outbox: true },
    config,
    opts,
  );
}
