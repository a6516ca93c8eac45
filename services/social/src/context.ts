import type { Runtime } from '@agora/common';

/** What every route factory of the social service receives. */
export interface SocialContext {
  rt: Runtime;
}
