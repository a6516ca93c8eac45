/**
 * Block / Unblock / Mute / Unmute / Follow / Unfollow: membership of a user in one of the
 * actor's own circles (`user.circles.blocked|muted|following`). Local users and remote
 * `@user@domain` handles both work (the reference's empty-member bug, §11.2-15, is not
 * ported). Blocked and muted authors leave the actor's circle timelines (timelines/query.ts);
 * followed ones are backfilled into the Following timeline and dropped from it on unfollow.
 */
import { parseId } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import type { ActivityHandler, HandlerContext, HandlerResult } from '../../types';
import { clean, idString, parse } from '../../validate';
import { resolveMember } from '../../members';
import { domainEvent } from '@agora/common/messaging';

interface Relation {
  circle: 'blocked' | 'muted' | 'following';
  add: boolean;
  /** The verb in messages ("you cannot block yourself"). */
  verb: string;
  event: `user.${'blocked' | 'unblocked' | 'muted' | 'unmuted' | 'followed' | 'unfollowed'}`;
  /** Where the user id is read first (Follow names its followee in `object`, as the reference). */
  from: 'target' | 'object';
}

export const RELATIONS = {
  Block: { circle: 'blocked', add: true, verb: 'block', event: 'user.blocked', from: 'target' },
  Unblock: { circle: 'blocked', add: false, verb: 'unblock', event: 'user.unblocked', from: 'target' },
  Mute: { circle: 'muted', add: true, verb: 'mute', event: 'user.muted', from: 'target' },
  Unmute: { circle: 'muted', add: false, verb: 'unmute', event: 'user.unmuted', from: 'target' },
  Follow: { circle: 'following', add: true, verb: 'follow', event: 'user.followed', from: 'object' },
  Unfollow: { circle: 'following', add: false, verb: 'unfollow', event: 'user.unfollowed', from: 'object' },
} as const satisfies Record<string, Relation>;

/** The user id an activity names in `field` (a string or `{ id }`). */
export function userRef(value: unknown, field: string): string {
  const raw =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as { id?: unknown }).id
      : value;
  const id = parse(idString, raw, field);
  if (parseId(id).type !== 'User') throw new BadRequest(`${field}: must be a user id (@user@domain)`);
  return id;
}

/** Adds or removes a user in one of the actor's relation circles. */
export async function changeRelation(
  ctx: HandlerContext,
  rel: Relation,
  userId: string,
  field = rel.from,
): Promise<HandlerResult> {
  const { svc, actor } = ctx;
  if (userId === actor.id) throw new BadRequest(`${field}: you cannot ${rel.verb} yourself`);
  const circleId = ((ctx.actor.record.circles ?? {}) as Record<string, string | undefined>)[rel.circle];
  if (!circleId) throw new NotFound(`Your ${rel.circle} circle is missing`);
  let changed: boolean;
  if (rel.add) {
    const member = await resolveMember(svc, userId);
    // False when they are a member already (the store's compare-and-set adds a member once).
    changed = await svc.stores.circles.addMember(circleId, member);
    // Only Following is a timeline; Blocked and Muted are filters.
    if (changed && rel.circle === 'following') await svc.stores.timelines.backfill(circleId, userId);
  } else {
    // Readers drop a former member's entries at once (TimelineStore keeps members' posts only).
    changed = await svc.stores.circles.removeMember(circleId, userId);
  }
  const circle = await svc.stores.circles.byId(circleId);
  return {
    result: { ...clean(circle), changed },
    objectId: circleId,
    objectType: 'Circle',
    target: userId,
    events: changed ? [domainEvent(rel.event, { actorId: actor.id, targetId: userId, circleId })] : [],
  };
}

function handlerFor(rel: Relation): ActivityHandler {
  return (ctx) => {
    // Either field is accepted; the preferred one wins when both are given.
    const field =
      ctx.activity[rel.from] !== undefined ? rel.from : rel.from === 'object' ? 'target' : 'object';
    return changeRelation(ctx, rel, userRef(ctx.activity[field], field), field);
  };
}

export const relationHandlers: Record<string, ActivityHandler> = Object.fromEntries(
  Object.entries(RELATIONS).map(([type, rel]) => [type, handlerFor(rel)]),
);
