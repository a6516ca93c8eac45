import type { Runtime } from '@agora/common/runtime';

export interface AdminContext {
  rt: Runtime;
}
