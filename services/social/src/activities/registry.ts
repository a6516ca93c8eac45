/**
 * The one map from activity type to handler, composed from each area's handlers and checked at
 * load: an activity type (or Create object type, or Add/Remove target kind) handled twice is a
 * start-up error, and an unknown one is a 400.
 */
import { BadRequest } from '@agora/common/errors';
import type { ActivityHandler } from './types';
import { circleHandlers } from './handlers/circles';
import { postHandlers } from './handlers/posts';
import { groupHandlers } from './handlers/groups';
import { libraryHandlers } from './handlers/library';
import { interactionHandlers } from './handlers/interactions';
import { userHandlers } from './handlers/users';
import { shareHandlers } from './handlers/shares';

export interface AreaHandlers {
  /** Create, by objectType (Post, Circle, …). */
  create?: Record<string, ActivityHandler>;
  /** Add/Remove, by target kind (circle, group). */
  add?: Record<string, ActivityHandler>;
  remove?: Record<string, ActivityHandler>;
  /** Any other activity type (React, Join, …). */
  types?: Record<string, ActivityHandler>;
}

const AREAS: Record<string, AreaHandlers> = {
  circles: circleHandlers,
  posts: postHandlers,
  groups: groupHandlers,
  library: libraryHandlers,
  interactions: interactionHandlers,
  users: userHandlers,
  shares: shareHandlers,
};

/**
 * Tables keyed by client input are Maps (docs/security.md, "Lookups keyed by input"): a plain
 * object would answer `__proto__`, `constructor` or `valueOf` with something that is not a handler.
 */
export type HandlerTable = ReadonlyMap<string, ActivityHandler>;

function merge(part: keyof AreaHandlers): Map<string, ActivityHandler> {
  const out = new Map<string, ActivityHandler>();
  for (const [area, handlers] of Object.entries(AREAS)) {
    for (const [key, fn] of Object.entries(handlers[part] ?? {})) {
      if (out.has(key))
        throw new Error(`activity registry: ${part} ${key} is handled twice (again by ${area})`);
      out.set(key, fn);
    }
  }
  return out;
}

const CREATE = merge('create');
const ADD = merge('add');
const REMOVE = merge('remove');
const TYPES = merge('types');

/** Create's object type, from `objectType` or `object.type` (User and Person are the same). */
export function createKind(activity: { objectType?: unknown; object?: unknown }): string {
  const raw =
    typeof activity.objectType === 'string'
      ? activity.objectType
      : ((activity.object as { type?: unknown } | undefined)?.type as string | undefined);
  if (typeof raw !== 'string' || !raw) throw new BadRequest('objectType: is required for Create');
  return raw === 'Person' ? 'User' : raw;
}

/** Add/Remove act on a circle (`target`) or a group (`to`, optionally with `target`). */
export function membershipKind(activity: { target?: unknown; to?: unknown }): string {
  const to = typeof activity.to === 'string' ? activity.to : '';
  if (to.startsWith('group:')) return 'group';
  const target = typeof activity.target === 'string' ? activity.target : '';
  const kind = target.split(':')[0] ?? '';
  if (!target || !kind) throw new BadRequest('target: a circle id (or `to`: a group id) is required');
  return kind;
}

function byKey(map: HandlerTable, key: (a: never) => string, what: string): ActivityHandler {
  return (ctx) => {
    const k = key(ctx.activity as never);
    const fn = map.get(k);
    if (!fn) throw new BadRequest(`${what}: unsupported ${k.slice(0, 40)}`);
    return fn(ctx);
  };
}

export const HANDLERS: HandlerTable = new Map([
  ...(CREATE.size ? ([['Create', byKey(CREATE, createKind, 'objectType')]] as const) : []),
  ...(ADD.size ? ([['Add', byKey(ADD, membershipKind, 'target')]] as const) : []),
  ...(REMOVE.size ? ([['Remove', byKey(REMOVE, membershipKind, 'target')]] as const) : []),
  ...TYPES,
]);

export const SUPPORTED = {
  create: [...CREATE.keys()],
  add: [...ADD.keys()],
  remove: [...REMOVE.keys()],
  types: [...TYPES.keys()],
};
