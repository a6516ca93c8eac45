/**
 * Who receives a local user's share (a boost, ADR 0024) beyond the sharer's followers: the
 * original's author, when their server speaks ActivityPub (to its shared inbox, else the
 * author's inbox), so they learn of the boost as Mastodon's users do. An Agora server gets a
 * share through its users' follows only, as any public post (the spec's protocol has no boosts);
 * a share names no one else (the mentions it quotes are the original's, not the sharer's).
 */
import { parseId, type PostDoc } from '@agora/common/db';
import { domainOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { inboxFor } from '../activitypub/follow';
import { isAgoraPeer } from '../activitypub/wire';
import type { Audience } from './audience';

/** `audience` with the original's author's ActivityPub inbox added when it is not there yet. */
export async function withSharedAuthor(
  ctx: FederationContext,
  share: Pick<PostDoc, 'shareOf'>,
  audience: Audience,
): Promise<Audience> {
  const original = share.shareOf ? await ctx.stores.posts.byId(share.shareOf) : null;
  const author = original?.actorId;
  const domain = author ? parseId(author).domain : undefined;
  if (!author || !domain || domain === ctx.config.DOMAIN.toLowerCase()) return audience;
  const actor = await ctx.stores.activityPub.remoteActorByHandle(author);
  if (!actor || (await isAgoraPeer(ctx, domain))) return audience;
  const inbox = inboxFor(actor);
  const targets = audience.targets.map((t) => ({ ...t, recipients: [...t.recipients] }));
  const held = targets.find((t) => t.inbox === inbox);
  if (held) {
    if (!held.recipients.includes(author)) held.recipients.push(author);
  } else targets.push({ domain: domainOf(inbox) ?? domain, inbox, recipients: [author] });
  return { ...audience, targets };
}
