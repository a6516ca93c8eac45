import type { Runtime } from '@agora/common/runtime';

export interface FederationContext {
  rt: Runtime;
}
