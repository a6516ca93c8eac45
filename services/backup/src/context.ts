import type { Runtime } from '@agora/common/runtime';

/** What the worker uses of the runtime. */
export type WorkerDeps = Pick<Runtime, 'config' | 'repos' | 'storage' | 'logger' | 'stamps' | 'events'>;

export interface BackupContext {
  rt: Runtime;
}
