/** Federation delivery outcomes (services/federation/src/delivery/settle.ts). */
import { family } from './registry';

export type DeliveryResult = 'delivered' | 'retry' | 'dead';

export function deliveryMetrics(): (result: DeliveryResult) => void {
  const outcomes = family('counter', 'agora_federation_deliveries_total', {
    help: 'Sends of activities to remote inboxes, by outcome (delivered; retry: held for a later send; dead: refused for good or given up).',
    labelNames: ['outcome'],
  });
  for (const outcome of ['delivered', 'retry', 'dead']) outcomes.inc({ outcome }, 0);
  return (outcome) => outcomes.inc({ outcome });
}
