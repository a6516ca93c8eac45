import { createService, type Config, type ServiceApp, type SharedDeps, type Runtime } from '@agora/common';

export interface BackupContext {
  rt: Runtime;
}

/** The backup worker process (no public routes). Its job handlers arrive with the backup issue. */
export function createApp(config: Config, opts: { shared?: SharedDeps } = {}): ServiceApp {
  return createService<BackupContext>({ name: 'backup', buildContext: (rt) => ({ rt }) }, config, opts);
}
