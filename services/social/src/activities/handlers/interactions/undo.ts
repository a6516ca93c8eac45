/**
 * Undo (behaviour-notes §4.3): `object` is the undone activity, inline (`{type, to|target,
 * object}`) or as the id of one of the actor's stored activities. React/Like → the actor's
 * reaction on the target is cleared; Follow → unfollow; Announce, or the id of a share itself →
 * the share is deleted (ADR 0024); anything else is acknowledged and ignored.
 */
import { z } from 'zod';
import { BadRequest, NotFound } from '@agora/common/errors';
import type { ActivityHandler } from '../../types';
import { del } from './delete';
import { idString, parse } from '../../validate';
import { kindAmong } from './targets';
import { REACTABLE, clearReaction } from './react';
import { RELATIONS, changeRelation, userRef } from './relations';
import { unshare, unshareOf } from '../shares/announce';

const inline = z.looseObject({
  type: z.string().min(1).max(40),
  to: idString.optional(),
  target: idString.optional(),
  object: z.union([idString, z.looseObject({ id: idString })]).optional(),
});

interface Undone {
  type: string;
  to?: string | undefined;
  target?: string | undefined;
  object?: string | { id: string } | undefined;
}

export const undo: ActivityHandler = async (ctx) => {
  const { svc, actor } = ctx;
  // The client library withdraws a reaction by its id: `{ type: 'Undo', target: <react id> }`.
  const target = ctx.activity.target;
  if (ctx.activity.object === undefined && typeof target === 'string' && target.startsWith('react:'))
    return del(ctx);
  if (ctx.activity.object === undefined) throw new BadRequest('object: the activity to undo is required');
  const given = parse(z.union([idString, inline]), ctx.activity.object, 'object');
  let undone: Undone;
  // A share (ADR 0024) is undone by its own id.
  if (typeof given === 'string' && given.startsWith('post:')) return unshare(ctx, given);
  if (typeof given === 'string') {
    const stored = await svc.stores.activities.ofActor(actor.id, given);
    if (!stored) throw new NotFound('Activity not found');
    // Stored React and Follow activities record the reacted-to object or followee as `target`.
    undone = { type: stored.type, target: stored.target ?? undefined };
  } else {
    undone = given;
  }

  switch (undone.type) {
    case 'React':
    case 'Like': {
      const objectId = typeof undone.object === 'object' ? undone.object.id : undone.object;
      const targetId = undone.to ?? undone.target ?? objectId;
      if (!targetId) throw new BadRequest('object.to: the reacted-to object is required');
      kindAmong(svc, targetId, REACTABLE, 'object.to', { copies: true });
      return clearReaction(ctx, targetId);
    }
    case 'Follow':
      return changeRelation(
        ctx,
        RELATIONS.Unfollow,
        userRef(undone.object ?? undone.target, 'object.object'),
        'object',
      );
    case 'Announce': {
      const original = typeof undone.object === 'object' ? undone.object.id : undone.object;
      const target = undone.target ?? original;
      if (!target) throw new BadRequest('object.object: the shared post is required');
      // With no share of that post, as before boosts existed: acknowledged and ignored.
      return (await unshareOf(ctx, target)) ?? { result: { status: 'ignored', type: 'Announce' } };
    }
    default:
      return { result: { status: 'ignored', type: undone.type } };
  }
};
