/** Create Circle; Add/Remove circle members (decisions.md §4, behaviour-notes §4.3). */
import { z } from 'zod';
import { canonicalTo } from '@agora/common/audience';
import { BadRequest, NotAuthorized, NotFound } from '@agora/common/errors';
import type { SocialContext } from '../../context';
import type { AreaHandlers } from '../registry';
import type { ActivityHandler, HandlerContext } from '../types';
import { clean, idString, mediaRef, parse } from '../validate';
import { resolveMember } from '../members';
import { domainEvent } from '@agora/common/messaging';

const circleObject = z.object({
  name: z.string().trim().min(1).max(100),
  summary: z.string().max(2000).optional(),
  icon: mediaRef.optional(),
  members: z
    .array(z.union([idString, z.object({ id: idString }).loose()]))
    .max(1000)
    .optional(),
});

const createCircle: ActivityHandler = async ({ svc, actor, activity }) => {
  const obj = parse(circleObject, activity.object, 'object');
  const domain = svc.config.DOMAIN;
  // A circle with no audience is private to its owner.
  const to = canonicalTo(activity.to ?? (activity.object as { to?: unknown }).to, 'to', domain, actor.id);
  const canReply = canonicalTo(activity.canReply, 'canReply', domain, to);
  const canReact = canonicalTo(activity.canReact, 'canReact', domain, to);
  const members = [];
  for (const m of obj.members ?? []) members.push(await resolveMember(svc, m));
  const unique = [...new Map(members.map((m) => [m.id, m])).values()];
  const circle = await svc.stores.circles.create({
    name: obj.name,
    actorId: actor.id,
    to,
    canReply,
    canReact,
    ...(obj.summary ? { summary: obj.summary } : {}),
    ...(obj.icon ? { icon: obj.icon } : {}),
    members: unique,
  });
  for (const m of unique) await svc.stores.timelines.backfill(circle.id, m.id);
  const stored = await svc.stores.circles.byId(circle.id);
  return {
    result: clean(stored),
    objectId: circle.id,
    objectType: 'Circle',
    to,
    events: [domainEvent('circle.created', { circleId: circle.id, actorId: actor.id, to })],
  };
};

/** The circle an Add/Remove acts on, if the actor may change its members. */
async function ownedCircle(svc: SocialContext, ctx: HandlerContext) {
  const target = parse(idString, ctx.activity.target, 'target');
  const circle = await svc.stores.circles.findById(target);
  if (!circle) throw new NotFound('Circle not found');
  if (circle.type === 'System' && !['Blocked', 'Muted', 'Groups', 'All Following'].includes(circle.name))
    throw new NotAuthorized('This circle cannot be changed');
  const serverOwned = circle.actorId === `@${svc.config.DOMAIN}`;
  if (serverOwned ? !ctx.actor.isServerAdmin : circle.actorId !== ctx.actor.id)
    throw new NotAuthorized('Only the circle owner can change its members');
  return circle;
}

const addToCircle: ActivityHandler = async (ctx) => {
  const { svc } = ctx;
  const circle = await ownedCircle(svc, ctx);
  const refs = Array.isArray(ctx.activity.object) ? ctx.activity.object : [ctx.activity.object];
  if (!refs.length || refs.length > 100) throw new BadRequest('object: one to 100 members');
  const added: string[] = [];
  for (const ref of refs) {
    const member = await resolveMember(svc, ref);
    if (await svc.stores.circles.addMember(circle.id, member)) {
      added.push(member.id);
      await svc.stores.timelines.backfill(circle.id, member.id);
    }
  }
  const stored = await svc.stores.circles.byId(circle.id);
  return {
    result: clean(stored),
    objectId: circle.id,
    objectType: 'Circle',
    target: circle.id,
    events: added.map((memberId) =>
      domainEvent('member.added', {
        circleId: circle.id,
        ownerId: circle.actorId,
        memberId,
        actorId: ctx.actor.id,
      }),
    ),
  };
};

const removeFromCircle: ActivityHandler = async (ctx) => {
  const { svc } = ctx;
  const circle = await ownedCircle(svc, ctx);
  const ref = ctx.activity.object;
  const memberId = parse(
    idString,
    typeof ref === 'object' && ref !== null ? (ref as { id?: unknown }).id : ref,
    'object',
  );
  // Readers drop a former member's entries at once (TimelineStore keeps members' posts only).
  const removed = await svc.stores.circles.removeMember(circle.id, memberId);
  const stored = await svc.stores.circles.byId(circle.id);
  return {
    result: clean(stored),
    objectId: circle.id,
    objectType: 'Circle',
    target: circle.id,
    events: removed
      ? [domainEvent('member.removed', { circleId: circle.id, memberId, actorId: ctx.actor.id })]
      : [],
  };
};

export const circleHandlers: AreaHandlers = {
  create: { Circle: createCircle },
  add: { circle: addToCircle },
  remove: { circle: removeFromCircle },
};
