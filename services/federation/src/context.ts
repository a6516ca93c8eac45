/**
 * What the federation service's routes, planner, delivery worker and poller receive
 * (docs/architecture.md, contexts). Only the wiring sees `Runtime`.
 */
import type { Config } from '@agora/common/config';
import { pickStores, type Repositories } from '@agora/common/db';
import type { Federation } from '@agora/common/federation';
import type { Logger } from '@agora/common/logger';
import type { EventBus, MessageBus } from '@agora/common/messaging';
import type { Runtime } from '@agora/common/runtime';

const FEDERATION_STORES = [
  'activities',
  'circles',
  'followers',
  'posts',
  'remoteServers',
  'settings',
  'users',
] as const satisfies readonly (keyof Repositories)[];

export type FederationStores = Pick<Repositories, (typeof FEDERATION_STORES)[number]>;

export interface FederationContext {
  config: Config;
  logger: Logger;
  stores: FederationStores;
  /** Events and jobs, typed from the catalogue (messaging/catalogue.ts). */
  events: EventBus;
  /** The raw bus, for publishing an activity's recorded outbox events (publishEvents). */
  bus: MessageBus;
  /** Signature checks, signed deliveries and fetches, the circuit breaker. */
  federation: Federation;
}

export function createFederationContext(rt: Runtime): FederationContext {
  return {
    config: rt.config,
    logger: rt.logger,
    stores: pickStores(rt.repos, FEDERATION_STORES),
    events: rt.events,
    bus: rt.bus,
    federation: rt.federation,
  };
}
