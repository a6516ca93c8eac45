/** The gateway's refusals (services/gateway/src/rate-limit.ts). */
import { family } from './registry';

export function rateLimitMetrics(limits: readonly string[]): (limit: string) => void {
  const refused = family('counter', 'agora_rate_limit_refusals_total', {
    help: 'Requests refused with 429 by a gateway rate limiter, by limiter.',
    labelNames: ['limit'],
  });
  for (const limit of limits) refused.inc({ limit }, 0);
  return (limit) => refused.inc({ limit });
}
