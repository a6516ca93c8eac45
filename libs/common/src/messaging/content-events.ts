/**
 * The content events, defined once: name and payload schema of what happens to posts, circles,
 * groups and pages. Producers build their payloads through `contentEvent` (a payload that does
 * not match is a programming error, thrown before anything is published); consumers can parse
 * with the same schemas.
 */
import { z } from 'zod';
import type { DomainEvent } from './activity-events';

const id = z.string().min(1).max(500);

const changed = z.object({
  objectId: id,
  objectType: z.string().min(1).max(50),
  actorId: id,
  ownerId: id.nullable(),
  fields: z.array(z.string().max(100)).max(100),
});

const removed = z.object({
  objectId: id,
  objectType: z.string().min(1).max(50),
  actorId: id,
  ownerId: id.nullable(),
});

export const CONTENT_EVENTS = {
  'post.created': z.object({ postId: id, actorId: id, to: z.string().max(500), type: z.string().max(50) }),
  'post.updated': changed,
  'post.deleted': removed,
  'circle.created': z.object({ circleId: id, actorId: id, to: z.string().max(500) }),
  'circle.updated': changed,
  'circle.deleted': removed,
  'group.created': z.object({
    groupId: id,
    actorId: id,
    to: z.string().max(500),
    rsvpPolicy: z.string().max(50),
  }),
  'group.updated': changed,
  'group.deleted': removed,
  'page.created': z.object({ pageId: id, actorId: id, slug: z.string().max(200), to: z.string().max(500) }),
  'page.updated': changed,
  'page.deleted': removed,
} as const;

export type ContentEventName = keyof typeof CONTENT_EVENTS;

export function contentEvent<N extends ContentEventName>(
  name: N,
  payload: z.infer<(typeof CONTENT_EVENTS)[N]>,
): DomainEvent {
  return { name, payload: CONTENT_EVENTS[name].parse(payload) };
}
