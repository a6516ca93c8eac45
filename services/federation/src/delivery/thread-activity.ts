/**
 * How replies and reactions are written for other servers of this API (the Agora wire format;
 * docs/federation.md, "Threads"): a reply is a `Note` with `inReplyTo` (its first-level parent
 * or the root) and `target` (the thread's root post), in Create, Update and Delete; a reaction is
 * `React` with `to` (the reacted-to post or reply) and `object: { id, type: 'React', emoji }`;
 * its removal is `Undo` of that React; a relay is `Announce` by this server's actor (`@<domain>`)
 * of one of those, for a thread rooted here. Activity ids derive from the event id, so a
 * redelivered event plans the same activities, which receivers deduplicate.
 */
import type { PostDoc, ReactRecord, ReplyRecord } from '@agora/common/db';
import { wireSensitivity } from '@agora/common/content';
import { domainOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { AS_PUBLIC, type OutgoingActivity } from './activity';

const CONTEXT = 'https://www.w3.org/ns/activitystreams';

function activityId(ctx: FederationContext, objectId: string, kind: string, eventId: string): string {
  return `${ctx.config.publicUrl}/posts/${encodeURIComponent(objectId)}#${kind}-${encodeURIComponent(eventId)}`;
}

/** The author: with this server's inbox when they are ours. */
function actor(ctx: FederationContext, id: string, name?: string | null) {
  const local = domainOf(id) === ctx.config.DOMAIN;
  return { id, name: name ?? id, ...(local ? { inbox: `${ctx.config.publicUrl}/inbox` } : {}) };
}

const addressed = (root: Pick<PostDoc, 'to'>) => (root.to === '@public' ? [AS_PUBLIC] : []);

function replyNote(reply: ReplyRecord, root: Pick<PostDoc, 'to'>) {
  return {
    id: reply.id,
    type: 'Note',
    attributedTo: reply.actorId,
    inReplyTo: reply.parent,
    target: reply.target,
    content: reply.body ?? '',
    source: reply.source ?? undefined,
    url: reply.url ?? undefined,
    published: (reply.createdAt ?? new Date()).toISOString(),
    to: addressed(root),
    ...wireSensitivity(reply),
  };
}

export type ReplyChange = 'create' | 'update' | 'delete';

/** Create, Update or Delete of a reply, by its author. */
export function replyActivity(
  ctx: FederationContext,
  change: ReplyChange,
  reply: ReplyRecord,
  root: Pick<PostDoc, 'to'>,
  eventId: string,
): OutgoingActivity {
  const type = change === 'create' ? 'Create' : change === 'update' ? 'Update' : 'Delete';
  return {
    '@context': CONTEXT,
    id: activityId(ctx, reply.id, change, eventId),
    type,
    actorId: reply.actorId,
    actor: actor(ctx, reply.actorId, reply.actor?.name),
    to: addressed(root),
    object: change === 'delete' ? reply.id : replyNote(reply, root),
  };
}

/** What a React or its Undo names of a reaction. */
export interface ReactionRef {
  id: string;
  actorId: string;
  target: string;
  actorName?: string | null | undefined;
}

/** React: the author's reaction on a post or reply is (now) this emoji. */
export function reactActivity(
  ctx: FederationContext,
  reaction: ReactRecord,
  root: Pick<PostDoc, 'to'>,
  eventId: string,
): OutgoingActivity {
  return {
    '@context': CONTEXT,
    id: activityId(ctx, reaction.target, 'react', eventId),
    type: 'React',
    actorId: reaction.actorId,
    actor: actor(ctx, reaction.actorId, reaction.actor?.name),
    to: reaction.target,
    cc: addressed(root),
    object: {
      id: reaction.id,
      type: 'React',
      emoji: reaction.emoji,
      ...(reaction.name ? { name: reaction.name } : {}),
    },
  };
}

/** Undo of a React: the author's reaction `ref.id` is gone. */
export function unreactActivity(
  ctx: FederationContext,
  ref: ReactionRef,
  root: Pick<PostDoc, 'to'>,
  eventId: string,
): OutgoingActivity {
  const who = actor(ctx, ref.actorId, ref.actorName);
  return {
    '@context': CONTEXT,
    id: activityId(ctx, ref.target, 'unreact', eventId),
    type: 'Undo',
    actorId: ref.actorId,
    actor: who,
    cc: addressed(root),
    object: { type: 'React', actorId: ref.actorId, to: ref.target, object: { id: ref.id, type: 'React' } },
  };
}

/** Announce by this server of an activity in a thread rooted here (a relay). */
export function relayActivity(
  ctx: FederationContext,
  inner: OutgoingActivity,
  eventId: string,
): OutgoingActivity {
  const server = `@${ctx.config.DOMAIN}`;
  return {
    '@context': CONTEXT,
    id: `${ctx.config.publicUrl}/users/${encodeURIComponent(server)}#relay-${encodeURIComponent(eventId)}`,
    type: 'Announce',
    actorId: server,
    actor: { id: server, inbox: `${ctx.config.publicUrl}/inbox` },
    object: inner,
  };
}

/**
 * Reject by this server of a remote author's reply or reaction in a thread rooted here (its
 * checks refused it), to the author's server, which stored it already: `object` is its id.
 */
export function rejectActivity(
  ctx: FederationContext,
  refused: { id: string; target: string; reason: string },
  eventId: string,
): OutgoingActivity {
  const server = `@${ctx.config.DOMAIN}`;
  return {
    '@context': CONTEXT,
    id: activityId(ctx, refused.target, 'reject', eventId),
    type: 'Reject',
    actorId: server,
    actor: { id: server, inbox: `${ctx.config.publicUrl}/inbox` },
    object: refused.id,
    target: refused.target,
    summary: refused.reason,
  };
}
