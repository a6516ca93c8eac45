/**
 * What to pull from whom: for every other server, its users who are members of circles owned by
 * this server's users (`from`), and those owners (`to`, the readers here); and the owners of that
 * server's circles cached here (`from`), with the actors of this server they hold (`to`: users, or
 * this server itself), so posts to those circles come by pull as by push. At most 100 of each per
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
  const entryOf = (d: string) => {
    const entry = byDomain.get(d) ?? { from: new Set<string>(), to: new Set<string>() };
    byDomain.set(d, entry);
    return entry;
  };
  for (const c of circles) {
    if (c.originDomain && c.originDomain !== domain && c.members?.length) {
      const entry = entryOf(c.originDomain);
      entry.from.add(c.actorId);
      for (const m of c.members) entry.to.add(m.id);
      continue;
    }
    if (!c.actorId?.endsWith(`@${domain}`) || !c.actorId.startsWith('@')) continue;
    for (const m of c.members ?? []) {
      const id = parseId(m.id);
      if (id.type !== 'User' || !id.domain || id.domain === domain) continue;
      const entry = entryOf(id.domain);
      entry.from.add(m.id);
      entry.to.add(c.actorId);
    }
  }
  return [...byDomain].map(([d, { from, to }]) => ({
    domain: d,
    from: [...from].slice(0, MAX_IDS),
    to: [...to].slice(0, MAX_IDS),
  }));
}
