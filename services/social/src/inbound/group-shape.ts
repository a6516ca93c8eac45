/**
 * Reading groups off an Agora peer's activities (the writer is the federation service's
 * delivery/group-activity.ts and audience-activity.ts): `group` describes the group (`{ id,
 * actorId, name, to, rsvpPolicy, description?, icon? }`) on Add, Remove, Accept, Reject and on
 * posts to it; a Join or Leave names the group in `object`; an Accept or Reject names the Join in
 * `object` as `{ type: 'Join', actor, object }`. Bounds, not trust: the callers check every id
 * against the signer.
 */
import { RSVP_POLICIES } from '@agora/common/db';
import { isHttpUrl } from '@agora/common/validation';
import { isObject, objectId, type Json } from './shape';

export interface GroupRef {
  id: string;
  actorId: string;
  name: string;
  to: string;
  rsvpPolicy: (typeof RSVP_POLICIES)[number];
  description?: string;
  icon?: string;
}

const GROUP_ID = /^group:[a-f0-9]{24}@[a-z0-9.-]+(:\d+)?$/;

export function isGroupId(v: unknown): v is string {
  return typeof v === 'string' && GROUP_ID.test(v);
}

const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');

export function readGroup(v: unknown): GroupRef | undefined {
  if (!isObject(v) || !isGroupId(v.id) || typeof v.actorId !== 'string') return undefined;
  const policy = RSVP_POLICIES.find((p) => p === v.rsvpPolicy) ?? 'approvalOnly';
  return {
    id: v.id,
    actorId: v.actorId.slice(0, 300),
    name: str(v.name, 100) || v.id,
    to: str(v.to, 300),
    rsvpPolicy: policy,
    ...(typeof v.description === 'string' ? { description: v.description.slice(0, 5000) } : {}),
    ...(isHttpUrl(v.icon) ? { icon: String(v.icon).slice(0, 2000) } : {}),
  };
}

/** An Add or Remove about a group's members circle (it carries the group). */
export function isGroupMembership(activity: Json): boolean {
  return isObject(activity.target) && activity.target.group !== undefined;
}

/** The Join an Accept or Reject answers: who asked to join which group. */
export function readAnswer(activity: Json): { memberId?: string; groupId?: string } {
  const join = activity.object;
  if (!isObject(join) || join.type !== 'Join') return {};
  const memberId = objectId(join.actor);
  const groupId = objectId(join.object);
  return { ...(memberId ? { memberId } : {}), ...(groupId ? { groupId } : {}) };
}

/** The group a post is addressed to, if any (`to` of the activity or the object). */
export function addressedGroup(activity: Json, object: Json): string | undefined {
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
  return [activity.to, object.to].flatMap(list).find(isGroupId);
}

/** An Update or Delete of a group itself (the group as `object`, or its id). */
export function isGroupChange(activity: Json): boolean {
  return isGroupId(objectId(activity.object));
}
