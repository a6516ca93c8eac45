/**
 * React (behaviour-notes §4.3, fixed per decisions.md §4): one reaction per (actor, target),
 * add / replace / clear. Setting a reaction needs a visible target that admits the actor through
 * `canReact`; clearing your own reaction does not (you may have lost sight of the target).
 */
import { z } from 'zod';
import { mintId } from '@agora/common/db';
import type { ActivityHandler, HandlerContext, HandlerResult } from '../../types';
import { actorRef, clean, parse } from '../../validate';
import { assertCapability, kindAmong, threadOf, visibleTarget, type Found } from './targets';
import { bumpUser, moveReaction, type ReactState } from './counters';
import { pointedAt } from './reply';
import { domainEvent } from '@agora/common/messaging';

export const REACTABLE = ['post', 'reply', 'page', 'bookmark', 'group', 'circle'] as const;

/** An emoji or a short label; also a key of `reactSummary`, so no `.` or `$`. */
export const emojiString = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(/^[^$.{}<>\p{Cc}]+$/u, 'must be an emoji or a short label');
const clearValue = z.union([z.literal(''), z.null()]);

const reactObject = z.object({
  emoji: z.union([emojiString, clearValue]).optional(),
  react: z.union([emojiString, clearValue]).optional(),
  name: z.string().trim().max(100).optional(),
});

type ReactRow = Record<string, unknown> & { id: string; emoji: string; name?: string | null; target: string };

export const react: ActivityHandler = async (ctx) => {
  const { svc, viewer } = ctx;
  const { id: targetId, field } = pointedAt(ctx);
  kindAmong(svc, targetId, REACTABLE, field, { copies: true });
  const obj = parse(reactObject, ctx.activity.object, 'object');
  const emoji = obj.emoji || obj.react || '';
  if (!emoji) return clearReaction(ctx, targetId);
  const target = await visibleTarget(svc, viewer, targetId, { copies: true });
  // A reply has no audience of its own: its thread root's capability applies.
  assertCapability(
    svc,
    viewer,
    target.kind === 'reply' ? (await threadOf(svc, target)).root : target,
    'canReact',
  );
  return setReaction(ctx, target, emoji, obj.name);
};

function outcome(
  status: string,
  row: ReactRow | null,
  targetId: string,
  state: ReactState | null,
  extra: Partial<HandlerResult> = {},
): HandlerResult {
  return {
    result: {
      ...(row ? clean(row) : { id: null, target: targetId, emoji: null }),
      status,
      ...(state ? { targetReactCount: state.reactCount, targetReactSummary: state.reactSummary } : {}),
    },
    ...(row ? { objectId: row.id } : {}),
    objectType: 'React',
    target: targetId,
    ...extra,
  };
}

async function setReaction(
  ctx: HandlerContext,
  target: Found,
  emoji: string,
  name: string | undefined,
  retried = false,
): Promise<HandlerResult> {
  const { svc, actor } = ctx;
  const reacts = svc.stores.reacts;
  const targetId = target.doc.id;
  const existing = (await reacts.mine(actor.id, targetId)) as ReactRow | null;
  if (existing) {
    if (existing.emoji === emoji && (name === undefined || existing.name === name))
      return outcome('already_reacted', existing, targetId, null);
    // A compare-and-set on the emoji read: a concurrent change or removal won, so read again.
    if (!(await reacts.changeEmoji(existing as never, emoji, name))) {
      if (retried) throw new Error('reaction could not be changed');
      return setReaction(ctx, target, emoji, name, true);
    }
    const state =
      existing.emoji === emoji
        ? await moveReaction(svc, targetId, {})
        : await moveReaction(svc, targetId, { [existing.emoji]: -1, [emoji]: 1 });
    // Servers holding the target hear of the new emoji (federation plans `react.updated`).
    const changed = domainEvent('react.updated', {
      objectId: existing.id,
      objectType: 'React',
      actorId: actor.id,
      ownerId: actor.id,
      fields: ['emoji', ...(name !== undefined ? ['name'] : [])],
    });
    return outcome(
      'replaced',
      { ...existing, emoji, ...(name !== undefined ? { name } : {}) },
      targetId,
      state,
      { events: [changed] },
    );
  }
  const id = mintId('react', svc.config.DOMAIN);
  const added = await reacts.add({
    id,
    actorId: actor.id,
    actor: actorRef(actor),
    target: targetId,
    emoji,
    ...(name ? { name } : {}),
    server: `@${svc.config.DOMAIN}`,
  });
  // A concurrent React by the same actor won the (target, actor) key: replace it.
  if (!added) {
    if (retried) throw new Error('reaction could not be stored');
    return setReaction(ctx, target, emoji, name, true);
  }
  await bumpUser(svc, actor.id, 'reactCount', 1);
  const state = await moveReaction(svc, targetId, { [emoji]: 1 });
  const row = (await reacts.mine(actor.id, targetId)) as ReactRow;
  return outcome('reacted', row, targetId, state, {
    events: [
      domainEvent('react.added', {
        reactId: id,
        target: targetId,
        actorId: actor.id,
        recipientId: target.doc.actorId ?? null,
        emoji,
      }),
    ],
  });
}

/** Removes the actor's reaction on a target, if any (React with no emoji, Undo of a React). */
export async function clearReaction(ctx: HandlerContext, targetId: string): Promise<HandlerResult> {
  const { svc, actor } = ctx;
  const removed = (await svc.stores.reacts.removeMine(actor.id, targetId)) as ReactRow | null;
  if (!removed) return outcome('no_change', null, targetId, null);
  await bumpUser(svc, actor.id, 'reactCount', -1);
  const state = await moveReaction(svc, targetId, { [removed.emoji]: -1 });
  return outcome('unreacted', null, targetId, state, {
    objectId: removed.id,
    events: [domainEvent('react.removed', { reactId: removed.id, target: targetId, actorId: actor.id })],
  });
}
