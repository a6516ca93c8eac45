/**
 * Reading the audience of an Agora peer's activity off the wire (the writer is the federation
 * service's delivery/audience-activity.ts): a post to a circle names the circle in `to`, the
 * receiving server's actors in `recipients` and the circle in `circle` (`{ id, actorId, name,
 * rev }`); Add and Remove name the member in `object` and the circle in `target`, with `members`,
 * every actor of the receiving server the circle holds at revision `rev`. Bounds, not trust: the
 * callers check every id against the signer.
 */
import { isObject, objectId, type Json } from './shape';

export interface CircleRef {
  id: string;
  actorId?: string;
  name: string;
  rev?: number;
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const MAX_IDS = 1000;

function ids(v: unknown): string[] {
  return list(v)
    .slice(0, MAX_IDS)
    .map((x) => objectId(x))
    .filter((x): x is string => !!x && x.length <= 300);
}

function circleRef(v: unknown, fallbackId?: string): CircleRef | undefined {
  const o = isObject(v) ? v : {};
  const id = objectId(o.id) ?? fallbackId;
  if (!id) return undefined;
  const rev = typeof o.rev === 'number' && Number.isSafeInteger(o.rev) && o.rev >= 0 ? o.rev : undefined;
  return {
    id,
    ...(typeof o.actorId === 'string' ? { actorId: o.actorId } : {}),
    name: typeof o.name === 'string' ? o.name.slice(0, 100) : '',
    ...(rev !== undefined ? { rev } : {}),
  };
}

/** Whether the activity says anything of its audience (an Update may carry content only). */
export function hasAddressing(activity: Json, object: Json): boolean {
  return [activity.to, activity.cc, object.to, object.cc].some((v) => v !== undefined);
}

/**
 * The circle a post is addressed to, and whom of the receiving server the delivery names; `scope`
 * when it speaks for some ids only (a pull answers for the ids it was asked about), else for all.
 */
export function readAddressed(
  activity: Json,
  object: Json,
): { circle?: CircleRef; recipients: string[]; scope?: string[] } {
  const to = [activity.to, object.to].flatMap(list).filter((t): t is string => typeof t === 'string');
  const circleId = to.find((t) => t.startsWith('circle:'));
  const given = circleRef(activity.circle);
  const circle = circleId ? (given?.id === circleId ? given : { id: circleId, name: '' }) : undefined;
  return {
    ...(circle ? { circle } : {}),
    recipients: ids(activity.recipients),
    ...(Array.isArray(activity.scope) ? { scope: ids(activity.scope) } : {}),
  };
}

/** The member an Add or Remove is about, and the circle with its members on the receiving server. */
export function readMembership(activity: Json): { memberId?: string; circle?: CircleRef; members: string[] } {
  const target = activity.target;
  const circle = circleRef(target, objectId(target));
  const memberId = objectId(activity.object);
  return {
    ...(memberId ? { memberId } : {}),
    ...(circle ? { circle } : {}),
    members: isObject(target) ? ids(target.members) : [],
  };
}
