/**
 * Mentions reach the mentioned (docs/federation.md, "ActivityPub"): a public post of this server
 * that names `@user@domain` of an ActivityPub server is delivered to that actor's inbox (its
 * shared inbox, else its inbox, as its actor document says) even when nobody there follows the
 * author, as Mastodon and the servers like it expect: the Note names them in `tag` and `cc`, and
 * their server notifies them. Servers of this API get a public post through their followers only
 * (the spec's protocol has no mention delivery), and a circle's post goes to its members only:
 * a mention never widens an audience that is not public. A handle that cannot be resolved is
 * remembered for a while (mention-misses.ts), so the next post naming it asks nobody again.
 */
import { parseId, type PostDoc } from '@agora/common/db';
import { domainOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { inboxFor } from '../activitypub/follow';
import { mentionedHandles } from '../activitypub/outbound-content';
import { resolveHandle } from '../activitypub/resolve';
import { isAgoraPeer } from '../activitypub/wire';
import type { Audience } from './audience';
import { missesOf } from './mention-misses';

/** `audience` with the ActivityPub actors a public post mentions added to its targets. */
export async function withMentioned(
  ctx: FederationContext,
  post: Pick<PostDoc, 'to' | 'source'>,
  audience: Audience,
): Promise<Audience> {
  if (post.to !== '@public') return audience;
  const targets = audience.targets.map((t) => ({ ...t, recipients: [...t.recipients] }));
  for (const handle of mentionedHandles(post.source?.content ?? '')) {
    const domain = parseId(handle).domain;
    if (!domain || domain === ctx.config.DOMAIN.toLowerCase() || (await isAgoraPeer(ctx, domain))) continue;
    // An actor this server cannot find (no WebFinger answer, unreachable) is not delivered to,
    // and not looked up again for a while (mention-misses.ts).
    const misses = missesOf(ctx.federation);
    if (misses.has(handle)) continue;
    const actor = await resolveHandle(ctx, handle).catch(() => undefined);
    if (!actor) {
      misses.add(handle);
      continue;
    }
    const inbox = inboxFor(actor);
    const held = targets.find((t) => t.inbox === inbox);
    if (held) {
      if (!held.recipients.includes(handle)) held.recipients.push(handle);
    } else targets.push({ domain: domainOf(inbox) ?? domain, inbox, recipients: [handle] });
  }
  return { ...audience, targets };
}
