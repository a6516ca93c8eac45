/**
 * Who receives what happens to a local object, as domain logic (no wire format): which remote
 * servers, and whom each delivery names, one delivery per distinct inbox. Only the public case is
 * here (the servers of the author's remote followers); non-public audiences (circles with remote
 * members, server members) are the audiences work of issue 23, which replaces this file.
 */
import type { FederationContext } from '../context';

/** One delivery: to this inbox of this server, naming these of its actors. */
export interface DeliveryTarget {
  domain: string;
  inbox: string;
  recipients: string[];
}

export interface Audience {
  /** The audience as stored (`@public`, a circle id, …). */
  to: string;
  targets: DeliveryTarget[];
}

/** Which servers receive something addressed to `to` by `actorId`, and whom each delivery names. */
export async function deliveryTargets(
  ctx: FederationContext,
  addressed: { actorId: string; to?: string | null },
): Promise<Audience> {
  const to = addressed.to ?? '';
  if (to !== '@public') return { to, targets: [] };
  const byInbox = new Map<string, DeliveryTarget>();
  for (const f of await ctx.stores.followers.ofUser(addressed.actorId)) {
    const target = byInbox.get(f.inbox) ?? { domain: f.domain, inbox: f.inbox, recipients: [] };
    target.recipients.push(f.actorId);
    byInbox.set(f.inbox, target);
  }
  return { to, targets: [...byInbox.values()] };
}
