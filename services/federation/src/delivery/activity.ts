/**
 * The activities other servers receive for a local post: Create, Update (the post as a Note or
 * Article: ids on this server's domain, the HTML body as `content`, the markdown as `source`) and
 * Delete (the post's id), addressed to the ActivityStreams Public collection (only public posts
 * are delivered today). `eventId` makes the activity id of a later change unique and stable.
 */
import type { PostDoc } from '@agora/common/db';
import type { Runtime } from '@agora/common/runtime';
import type { DeliveryJob } from './job';

/** What a delivery job carries: an activity with its id. */
export type OutgoingActivity = DeliveryJob['activity'];

export const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

function envelope(rt: Runtime, post: PostDoc, type: string, suffix: string) {
  const actor = post.actor ?? {};
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${rt.config.publicUrl}/posts/${encodeURIComponent(post.id)}#${suffix}`,
    type,
    actorId: post.actorId,
    actor: { id: post.actorId, name: actor.name ?? post.actorId, inbox: `${rt.config.publicUrl}/inbox` },
    to: [AS_PUBLIC],
  };
}

function note(post: PostDoc) {
  return {
    id: post.id,
    type: post.type === 'Article' ? 'Article' : 'Note',
    attributedTo: post.actorId,
    content: post.body ?? '',
    source: post.source ?? undefined,
    url: post.url ?? undefined,
    published: (post.publishedAt ?? new Date()).toISOString(),
    to: [AS_PUBLIC],
  };
}

const suffixOf = (kind: string, eventId?: string) =>
  eventId ? `${kind}-${encodeURIComponent(eventId)}` : kind;

export function createActivity(rt: Runtime, post: PostDoc, eventId?: string): OutgoingActivity {
  const object = note(post);
  return {
    ...envelope(rt, post, 'Create', suffixOf('create', eventId)),
    published: object.published,
    object,
  };
}

export function updateActivity(rt: Runtime, post: PostDoc, eventId: string): OutgoingActivity {
  return { ...envelope(rt, post, 'Update', suffixOf('update', eventId)), object: note(post) };
}

export function deleteActivity(rt: Runtime, post: PostDoc, eventId: string): OutgoingActivity {
  return { ...envelope(rt, post, 'Delete', suffixOf('delete', eventId)), object: post.id };
}

/** Delete of a local actor (account deletion), addressed to the Public collection. */
export function deleteActorActivity(rt: Runtime, userId: string, eventId: string): OutgoingActivity {
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${rt.config.publicUrl}/users/${encodeURIComponent(userId)}#${suffixOf('delete', eventId)}`,
    type: 'Delete',
    actorId: userId,
    actor: { id: userId, inbox: `${rt.config.publicUrl}/inbox` },
    to: [AS_PUBLIC],
    object: userId,
  };
}

/** Follow (or its Undo) of a remote user by a local one. */
export function followActivity(
  rt: Runtime,
  localId: string,
  remoteId: string,
  eventId: string,
  undo: boolean,
): OutgoingActivity {
  const base = `${rt.config.publicUrl}/users/${encodeURIComponent(localId)}`;
  const follow = {
    id: `${base}#follow-${encodeURIComponent(eventId)}`,
    type: 'Follow',
    actorId: localId,
    actor: { id: localId, inbox: `${rt.config.publicUrl}/inbox` },
    object: remoteId,
  };
  if (!undo) return { '@context': 'https://www.w3.org/ns/activitystreams', ...follow };
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${base}#undo-${encodeURIComponent(eventId)}`,
    type: 'Undo',
    actorId: localId,
    actor: follow.actor,
    object: follow,
  };
}
