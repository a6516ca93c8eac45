/**
 * What to pull from whom: for every other server, its users who are members of circles owned by
 * this server's users (`from`), and those owners (`to`, the readers here). At most 100 of each per
 * server per poll (the pull protocol's limit).
 */
import { parseId } from '@agora/common/db';
import type { FederationContext } from '../context';

export interface PollTarget {
  domain: string;
  from: string[];
  to: string[];
}

const MAX_IDS = 100;

export async function pollTargets(ctx: FederationContext): Promise<PollTarget[]> {
  const domain = ctx.config.DOMAIN;
  const circles = await ctx.stores.circles.allWithMembers();
  const byDomain = new Map<string, { from: Set<string>; to: Set<string> }>();
  for (const c of circles) {
    if (!c.actorId?.endsWith(`@${domain}`) || !c.actorId.startsWith('@')) continue;
    for (const m of c.members ?? []) {
      const id = parseId(m.id);
      if (id.type !== 'User' || !id.domain || id.domain === domain) continue;
      const entry = byDomain.get(id.domain) ?? { from: new Set<string>(), to: new Set<string>() };
      entry.from.add(m.id);
      entry.to.add(c.actorId);
      byDomain.set(id.domain, entry);
    }
  }
  return [...byDomain].map(([d, { from, to }]) => ({
    domain: d,
    from: [...from].slice(0, MAX_IDS),
    to: [...to].slice(0, MAX_IDS),
  }));
}
