/**
 * The activities other servers receive for a local post: Create, Update (the post as a Note or
 * Article: ids on this server's domain, the HTML body as `content`, the markdown as `source`) and
 * Delete (the post's id), addressed to the ActivityStreams Public collection (only public posts
 * are delivered today). `eventId` makes the activity id of a later change unique and stable.
 */
import type { PostDoc } from '@agora/common/db';
import { wireSensitivity } from '@agora/common/content';
import type { FederationContext } from '../context';
import type { DeliveryJob } from './job';

/** What a delivery job carries: an activity with its id. */
export type OutgoingActivity = DeliveryJob['activity'];

export const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

function envelope(ctx: FederationContext, post: PostDoc, type: string, suffix: string) {
  const actor = post.actor ?? {};
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/posts/${encodeURIComponent(post.id)}#${suffix}`,
    type,
    actorId: post.actorId,
    actor: { id: post.actorId, name: actor.name ?? post.actorId, inbox: `${ctx.config.publicUrl}/inbox` },
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
    // A share (ADR 0024): what it shares, so the receiver keeps it as a share (no mentions of
    // the people the quoted post names).
    ...(post.shareOf ? { shareOf: post.shareOf } : {}),
    published: (post.publishedAt ?? new Date()).toISOString(),
    to: [AS_PUBLIC],
    // The content warning as `summary`, `sensitive`, the media with descriptions (ADR 0021).
    ...wireSensitivity(post),
  };
}

const suffixOf = (kind: string, eventId?: string) =>
  eventId ? `${kind}-${encodeURIComponent(eventId)}` : kind;

export function createActivity(ctx: FederationContext, post: PostDoc, eventId?: string): OutgoingActivity {
  const object = note(post);
  return {
    ...envelope(ctx, post, 'Create', suffixOf('create', eventId)),
    published: object.published,
    object,
  };
}

export function updateActivity(ctx: FederationContext, post: PostDoc, eventId: string): OutgoingActivity {
  return { ...envelope(ctx, post, 'Update', suffixOf('update', eventId)), object: note(post) };
}

export function deleteActivity(ctx: FederationContext, post: PostDoc, eventId: string): OutgoingActivity {
  return { ...envelope(ctx, post, 'Delete', suffixOf('delete', eventId)), object: post.id };
}

/** Delete of a local actor (account deletion), addressed to the Public collection. */
export function deleteActorActivity(
  ctx: FederationContext,
  userId: string,
  eventId: string,
): OutgoingActivity {
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${ctx.config.publicUrl}/users/${encodeURIComponent(userId)}#${suffixOf('delete', eventId)}`,
    type: 'Delete',
    actorId: userId,
    actor: { id: userId, inbox: `${ctx.config.publicUrl}/inbox` },
    to: [AS_PUBLIC],
    object: userId,
  };
}

/** Follow (or its Undo) of a remote user by a local one. */
export function followActivity(
  ctx: FederationContext,
  localId: string,
  remoteId: string,
  eventId: string,
  undo: boolean,
): OutgoingActivity {
  const base = `${ctx.config.publicUrl}/users/${encodeURIComponent(localId)}`;
  const follow = {
    id: `${base}#follow-${encodeURIComponent(eventId)}`,
    type: 'Follow',
    actorId: localId,
    actor: { id: localId, inbox: `${ctx.config.publicUrl}/inbox` },
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
