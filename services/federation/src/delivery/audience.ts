/**
 * Which remote servers receive what happens to a post, and which of their users each delivery
 * names: one target per distinct inbox. Only the public case is here (the servers of the
 * author's remote followers); non-public audiences (circles with remote members, server members)
 * are the audiences work of issue 23.
 */
import type { PostDoc } from '@agora/common/db';
import type { FederationContext } from '../context';

export interface DeliveryTarget {
  domain: string;
  inbox: string;
  /** The users of that server the delivery is for. */
  recipients: string[];
}

export async function deliveryTargets(
  ctx: FederationContext,
  post: Pick<PostDoc, 'actorId' | 'to'>,
): Promise<DeliveryTarget[]> {
  if (post.to !== '@public') return [];
  const byInbox = new Map<string, DeliveryTarget>();
  for (const f of await ctx.stores.followers.ofUser(post.actorId)) {
    const target = byInbox.get(f.inbox) ?? { domain: f.domain, inbox: f.inbox, recipients: [] };
    target.recipients.push(f.actorId);
    byInbox.set(f.inbox, target);
  }
  return [...byInbox.values()];
}
