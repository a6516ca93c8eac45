/**
 * Whether an admin blocked a domain (docs/federation.md, "Blocking a domain"): asked on every
 * exchange with another server (inbox, deliveries, pulls both ways, lookups, pages), so the set is
 * cached in the process and read again only when its stamp moved (an admin's block or unblock
 * bumps it, in Redis when REDIS_URL is set, so every replica sees it at once). While the stamp
 * store cannot answer, the cached set is trusted for a few seconds.
 */
import { STAMPS, type StampStore } from '../cache/stamps';
import { domainOf } from './domain';

export interface DomainBlocks {
  isBlocked(domain: string): Promise<boolean>;
  /** Whether an id (`@user@domain`, `post:…@domain`, a URL) belongs to a blocked domain. */
  ownerBlocked(id: string): Promise<boolean>;
  /** Every process must read the set again (after a block or an unblock). */
  changed(): Promise<void>;
}

const FALLBACK_TTL_MS = 5_000;

export function domainBlocks(
  source: { blockedDomains(): Promise<string[]> },
  stamps: Pick<StampStore, 'read' | 'bump'>,
): DomainBlocks {
  let cached: { stamp: number | null; at: number; domains: Set<string> } | undefined;
  let loading: Promise<Set<string>> | undefined;

  async function current(): Promise<Set<string>> {
    const stamp = ((await stamps.read([STAMPS.blockedDomains])) ?? [null])[0] ?? null;
    if (cached && stamp !== null && cached.stamp === stamp) return cached.domains;
    if (cached && stamp === null && Date.now() - cached.at < FALLBACK_TTL_MS) return cached.domains;
    loading ??= source
      .blockedDomains()
      .then((list) => {
        const domains = new Set(list.map((d) => d.toLowerCase()));
        cached = { stamp, at: Date.now(), domains };
        return domains;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  const blocks: DomainBlocks = {
    async isBlocked(domain) {
      const set = await current();
      return set.size > 0 && set.has(domain.toLowerCase());
    },
    async ownerBlocked(id) {
      const domain = domainOf(id);
      return domain !== undefined && blocks.isBlocked(domain);
    },
    changed: () => stamps.bump([STAMPS.blockedDomains]),
  };
  return blocks;
}
