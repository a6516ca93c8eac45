import type { Runtime } from '@agora/common/runtime';

/** What every route factory of the social service receives. */
export interface SocialContext {
  rt: Runtime;
}
