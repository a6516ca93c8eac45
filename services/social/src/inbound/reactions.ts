/**
 * Remote reactions (docs/federation.md, "Threads"): React sets the author's one reaction on a post
 * or reply held here (adding it, or changing its emoji), Undo of a React removes it. The target's
 * `reactCount` and `reactSummary` move as for a local reaction, and the events are a local
 * reaction's: `react.added` notifies the target's author, and all of them are relayed by the
 * federation planner when the thread is rooted here. A reaction keeps the id its author's server
 * gave it, so an Undo removes only the reaction it names (not a newer one).
 */
import { domainEvent } from '@agora/common/messaging';
import { domainOf } from '@agora/common/federation';
import type { SocialContext } from '../context';
import { moveReaction } from '../activities/handlers/interactions/counters';
import type { Inbound, Outcome } from './apply';
import { actorNameOf, readReaction, readUnreact, type ReactionWire } from './thread-shape';
import {
  authorRef,
  denied,
  ignored,
  isThread,
  rejected,
  threadAt,
  trusted,
  untrusted,
  type Thread,
} from './thread';

export async function reactInbound(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const read = readReaction(a.activity, a.actorId);
  if (!read.ok) return rejected(read.reason);
  const thread = await threadAt(ctx, read.value.target);
  if (!isThread(thread)) return thread;
  const trust = trusted(a, thread);
  if ('status' in trust) return trust;
  const refused = trust.verdict === 'check' ? await denied(ctx, a.actorId, thread, 'canReact') : undefined;
  if (refused) {
    const { id, target } = read.value;
    const told = { reactId: id, target, actorId: a.actorId, reason: refused.reason ?? '' };
    return { ...refused, events: [domainEvent('react.refused', told)] };
  }
  return setReaction(ctx, a, thread, read.value);
}

async function setReaction(
  ctx: SocialContext,
  a: Inbound,
  thread: Thread,
  wire: ReactionWire,
): Promise<Outcome> {
  const reacts = ctx.stores.reacts;
  const target = thread.target.doc.id;
  const existing = await reacts.mine(a.actorId, target);
  if (existing?.id === wire.id) {
    if (existing.emoji === wire.emoji && (wire.name ?? null) === (existing.name ?? null))
      return ignored('the reaction is set already');
    if (!(await reacts.changeEmoji(existing, wire.emoji, wire.name)))
      return ignored('the reaction changed meanwhile');
    if (existing.emoji !== wire.emoji)
      await moveReaction(ctx, target, { [existing.emoji]: -1, [wire.emoji]: 1 });
    return {
      status: 'processed',
      events: [
        domainEvent('react.updated', {
          objectId: wire.id,
          objectType: 'React',
          actorId: a.actorId,
          ownerId: a.actorId,
          fields: ['emoji', 'name'],
        }),
      ],
    };
  }
  // Another reaction of this author's (one whose Undo never arrived) gives way to the new one.
  if (existing && (await reacts.removeById(existing.id)))
    await moveReaction(ctx, target, { [existing.emoji]: -1 });
  const added = await reacts.add({
    id: wire.id,
    actorId: a.actorId,
    actor: authorRef(a.actorId, actorNameOf(a.activity)),
    target,
    emoji: wire.emoji,
    ...(wire.name ? { name: wire.name } : {}),
    server: `@${domainOf(a.actorId) ?? ''}`,
  });
  if (!added) return ignored('a reaction of this author was stored meanwhile');
  await moveReaction(ctx, target, { [wire.emoji]: 1 });
  return {
    status: 'processed',
    events: [
      domainEvent('react.added', {
        reactId: wire.id,
        target,
        actorId: a.actorId,
        recipientId: thread.target.doc.actorId ?? null,
        emoji: wire.emoji,
      }),
    ],
  };
}

export async function unreactInbound(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const read = readUnreact(a.activity, a.actorId);
  if (!read.ok) return rejected(read.reason);
  const thread = await threadAt(ctx, read.value.target);
  if (!isThread(thread)) return thread;
  // Withdrawing one's own reaction needs no sight of the target (as locally).
  const refused = untrusted(a, thread);
  if (refused) return refused;
  const target = thread.target.doc.id;
  const existing = await ctx.stores.reacts.mine(a.actorId, target);
  if (existing?.id !== read.value.id) return ignored('no reaction of this author has that id here');
  const removed = await ctx.stores.reacts.removeById(existing.id);
  if (!removed) return ignored('the reaction was removed meanwhile');
  await moveReaction(ctx, target, { [removed.emoji]: -1 });
  return {
    status: 'processed',
    events: [domainEvent('react.removed', { reactId: removed.id, target, actorId: a.actorId })],
  };
}
