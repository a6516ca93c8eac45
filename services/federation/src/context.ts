import type { Runtime } from '@agora/common';

export interface FederationContext {
  rt: Runtime;
}
