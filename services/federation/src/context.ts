/**
 * What the federation service's routes, planner, delivery worker and poller receive
 * (docs/architecture.md, contexts). Only the wiring sees `Runtime`.
 */
import type { StampStore } from '@agora/common/cache';
import type { Stores } from '@agora/common/db';
import type { Federation } from '@agora/common/federation';
import type { MessageBus } from '@agora/common/messaging';
import { serviceContext, type BaseContext, type Runtime } from '@agora/common/runtime';
import { createPeers, type Peers } from './servers/peers';

const FEDERATION_STORES = [
  'activities',
  'activityPub',
  'circles',
  'flags',
  'followers',
  'groups',
  'parkedDeliveries',
  'posts',
  'reacts',
  'remoteServers',
  'replies',
  'settings',
  'users',
] as const satisfies readonly (keyof Stores)[];

export type FederationStores = Pick<Stores, (typeof FEDERATION_STORES)[number]>;

export interface FederationContext extends BaseContext<FederationStores> {
  /** The raw bus, for publishing an activity's recorded outbox events (publishEvents). */
  bus: MessageBus;
  /** Signature checks, signed deliveries and fetches, the circuit breaker. */
  federation: Federation;
  /** Cache stamps (the blocked domains' set). */
  stamps: StampStore;
  /** Other servers as this service sees them: answering or not, blocked or not (servers/peers.ts). */
  peers: Peers;
}

export function createFederationContext(rt: Runtime): FederationContext {
  const base = serviceContext(rt, FEDERATION_STORES, ['bus', 'federation', 'stamps']);
  return { ...base, peers: createPeers(base) };
}
