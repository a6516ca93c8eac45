import type { JobPayload } from '@agora/common/messaging';

/** A delivery job (the catalogue's `federation.deliver`): one activity to one remote inbox, with its attempt. */
export const DELIVER_QUEUE = 'federation.deliver';
export type DeliveryJob = JobPayload<typeof DELIVER_QUEUE>;

/**
 * Delay queues are one per distinct delay (AMQP), so delays are rounded up to a fixed set of
 * tiers: jitter still spreads retries across neighbouring tiers.
 */
const TIERS_MS = [
  100, 250, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_200_000, 2_400_000,
  3_600_000, 7_200_000, 14_400_000, 21_600_000,
];

export function tierFor(ms: number): number {
  return TIERS_MS.find((t) => t >= ms) ?? TIERS_MS[TIERS_MS.length - 1]!;
}
