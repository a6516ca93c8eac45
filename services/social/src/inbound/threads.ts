/**
 * Which inbound activities are about threads (replies and reactions, their edits and removals),
 * and the relays of them: `Announce` by a thread's server of an activity it received for its
 * thread (a peer's user's reply, reaction, edit or removal). A relay is applied as that activity
 * with the relaying server as its sender, so the thread rule (thread-trust.ts) decides: it is
 * heard only when the relaying server owns the thread's root. A `Reject` by a thread's server of
 * one of this server's users' replies or reactions withdraws it here (refused.ts).
 */
import type { SocialContext } from '../context';
import type { Inbound, Outcome } from './apply';
import { reactInbound, unreactInbound } from './reactions';
import { namesHeldInteraction, refusedInbound } from './refused';
import { createReply, deleteReply, namesHeldReply, updateReply } from './replies';
import { isObject } from './shape';
import { RELAYABLE, actorOf, isReplyObject, undoesReaction } from './thread-shape';
import { ignored, rejected } from './thread';

type Apply = (ctx: SocialContext, a: Inbound) => Promise<Outcome>;

/** The thread handler for an activity, or undefined when it is not about a thread. */
export async function threadHandler(ctx: SocialContext, a: Inbound): Promise<Apply | undefined> {
  const object = a.activity.object;
  switch (a.type) {
    case 'Create':
      return isReplyObject(object) ? createReply : undefined;
    case 'Update':
      return (await namesHeldReply(ctx, object)) ? updateReply : undefined;
    case 'Delete':
      return (await namesHeldReply(ctx, object)) ? deleteReply : undefined;
    case 'React':
      return reactInbound;
    case 'Undo':
      return undoesReaction(a.activity) ? unreactInbound : undefined;
    case 'Announce':
      return relayed;
    case 'Reject':
      return (await namesHeldInteraction(ctx, object)) ? refusedInbound : undefined;
    default:
      return undefined;
  }
}

/** An Announce: the relayed activity, applied with the relaying server as its sender. */
async function relayed(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const inner = a.activity.object;
  if (!isObject(inner)) return ignored('only Announce of an activity (a thread relay) is processed');
  const type = typeof inner.type === 'string' ? inner.type : '';
  if (!RELAYABLE.has(type))
    return ignored(`a relayed ${type.slice(0, 64) || 'untyped activity'} is not processed`);
  const actorId = actorOf(inner);
  if (!actorId) return rejected('object.actor: the relayed activity needs an actor');
  const relay = { type, actorId, signerDomain: a.signerDomain, activity: inner };
  const apply = await threadHandler(ctx, relay);
  return apply ? apply(ctx, relay) : ignored(`a relayed ${type} that is not about a thread is not processed`);
}
