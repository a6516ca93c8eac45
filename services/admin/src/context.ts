import type { Runtime } from '@agora/common';

export interface AdminContext {
  rt: Runtime;
}
