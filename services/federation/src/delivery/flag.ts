/**
 * Flag forwarding, outbound (docs/federation.md, "Flag forwarding"): a local user's flag of another
 * server's object, when they asked for it (`forward: true`), goes to that server's shared inbox as
 * a `Flag` of the object, from this server's actor: the object's server learns what was reported
 * and why, not who reported it (as Mastodon forwards reports). Not to a blocked domain (the worker
 * drops it).
 */
import { domainOf, sharedInboxOf } from '@agora/common/federation';
import type { EventMessage } from '@agora/common/messaging';
import type { FederationContext } from '../context';
import { enqueueDelivery, type DeliveryJob } from './job';

export async function planFlagForward(
  ctx: FederationContext,
  msg: EventMessage<'flag.created'>,
): Promise<number> {
  const flag = await ctx.stores.flags.byId(msg.payload.flagId);
  const domain = flag ? domainOf(flag.target) : undefined;
  if (!flag?.forward || !domain || domain === ctx.config.DOMAIN.toLowerCase()) return 0;
  const server = `@${ctx.config.DOMAIN}`;
  const activity: DeliveryJob['activity'] = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/flags/${encodeURIComponent(flag.id)}#forward`,
    type: 'Flag',
    actorId: server,
    actor: { id: server, inbox: `${ctx.config.publicUrl}/inbox` },
    object: [flag.target],
    reason: { code: flag.reason.code, ...(flag.reason.label ? { label: flag.reason.label } : {}) },
    // The reporter's own words, as ActivityPub's Flag carries them.
    content: [flag.reason.details, flag.notes].filter(Boolean).join('\n'),
  };
  const inbox = sharedInboxOf(ctx.config, domain);
  await enqueueDelivery(ctx, { inbox, domain }, activity, msg.publishedAt);
  return 1;
}
