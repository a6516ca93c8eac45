/** A delivery job: one activity to one remote inbox, with the attempt it is on. */
export const DELIVER_QUEUE = 'federation.deliver';

export interface DeliveryJob {
  inbox: string;
  domain: string;
  activity: Record<string, unknown>;
  /** 1 for the first try; carried in the job because retries are re-enqueued with their own delay. */
  attempt: number;
}

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
