/**
 * What the federation service's routes, planner, delivery worker and poller receive
 * (docs/architecture.md, contexts). Only the wiring sees `Runtime`.
 */
import type { Stores } from '@agora/common/db';
import type { Federation } from '@agora/common/federation';
import type { MessageBus } from '@agora/common/messaging';
import { serviceContext, type BaseContext, type Runtime } from '@agora/common/runtime';

const FEDERATION_STORES = [
  'activities',
  'circles',
  'followers',
  'posts',
  'remoteServers',
  'settings',
  'users',
] as const satisfies readonly (keyof Stores)[];

export type FederationStores = Pick<Stores, (typeof FEDERATION_STORES)[number]>;

export interface FederationContext extends BaseContext<FederationStores> {
  /** The raw bus, for publishing an activity's recorded outbox events (publishEvents). */
  bus: MessageBus;
  /** Signature checks, signed deliveries and fetches, the circuit breaker. */
  federation: Federation;
}

export function createFederationContext(rt: Runtime): FederationContext {
  return serviceContext(rt, FEDERATION_STORES, ['bus', 'federation']);
}
