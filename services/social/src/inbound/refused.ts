/**
 * Reject by a thread's server of a reply or reaction one of this server's users made on a copy of
 * its post (docs/federation.md, "Threads"): it was stored and counted here at once, and the
 * thread's server, the authority for the thread, refused it (its `canReply` / `canReact`, or the
 * post's audience, does not admit the author). It goes here too, so this server does not keep
 * what no other server holds. Only the thread's server is heard, and only about this server's
 * users' replies and reactions in that thread.
 */
import { domainOf } from '@agora/common/federation';
import type { SocialContext } from '../context';
import { bumpObject, bumpUser, moveReaction } from '../activities/handlers/interactions/counters';
import type { Inbound, Outcome } from './apply';
import { objectId } from './shape';
import { ignored, isThread, rejected, threadAt } from './thread';

/** Whether a Reject names a reply or a reaction held here. */
export async function namesHeldInteraction(ctx: SocialContext, object: unknown): Promise<boolean> {
  const id = objectId(object);
  return !!id && (!!(await ctx.stores.replies.byId(id)) || !!(await ctx.stores.reacts.byId(id)));
}

/** The refusal applies when the refused object is our user's and the sender owns its thread. */
async function mayWithdraw(
  ctx: SocialContext,
  a: Inbound,
  authorId: string,
  threadOf: string,
): Promise<Outcome | undefined> {
  if (domainOf(authorId) !== ctx.config.DOMAIN)
    return ignored("only this server's users' replies and reactions are withdrawn on a refusal");
  const thread = await threadAt(ctx, threadOf);
  if (!isThread(thread)) return thread;
  if (thread.rootOrigin !== a.signerDomain)
    return rejected('only the server that owns the thread may refuse what is said in it');
  return undefined;
}

export async function refusedInbound(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const id = objectId(a.activity.object) ?? '';
  const reply = await ctx.stores.replies.liveById(id);
  if (reply) {
    const no = await mayWithdraw(ctx, a, reply.actorId, reply.target);
    if (no) return no;
    const tomb = { deletedAt: new Date(), deletedBy: `@${a.signerDomain}`, type: 'Tombstone' };
    if (!(await ctx.stores.replies.softDelete(reply.id, tomb)))
      return ignored('the reply is deleted already');
    await bumpUser(ctx, reply.actorId, 'replyCount', -1);
    await bumpObject(ctx, reply.target, 'replyCount', -1);
    if (reply.parent && reply.parent !== reply.target) await bumpObject(ctx, reply.parent, 'replyCount', -1);
    return { status: 'processed' };
  }
  const reaction = await ctx.stores.reacts.byId(id);
  if (!reaction) return ignored('no live reply or reaction with that id is held here');
  const no = await mayWithdraw(ctx, a, reaction.actorId, reaction.target);
  if (no) return no;
  if (!(await ctx.stores.reacts.removeById(reaction.id)))
    return ignored('the reaction was removed meanwhile');
  await bumpUser(ctx, reaction.actorId, 'reactCount', -1);
  await moveReaction(ctx, reaction.target, { [reaction.emoji]: -1 });
  return { status: 'processed' };
}
