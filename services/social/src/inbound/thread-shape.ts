/**
 * Reading replies and reactions as peers write them (the Agora wire format, docs/federation.md
 * "Threads"): a reply is a `Note` with `inReplyTo`; a reaction is `React` with `to` (the reacted
 * object) and `object: { id, emoji, name? }`; its removal is `Undo` of such a React; a relay is
 * `Announce` by the thread's server of one of those. Every id a peer gives for its author's
 * object must be on the author's domain. Nothing here reads the database.
 */
import { domainOf } from '@agora/common/federation';
import { emojiString } from '../activities/handlers/interactions/react';
import { isObject, objectId, type Json } from './shape';

/** What a relay may carry: the thread activities, nothing else. */
export const RELAYABLE = new Set(['Create', 'Update', 'Delete', 'React', 'Undo']);

export type Read<T> = { ok: true; value: T } | { ok: false; reason: string };
const bad = <T>(reason: string): Read<T> => ({ ok: false, reason });

/** The actor of an activity: `actorId`, `actor.id` or `actor`. */
export function actorOf(activity: Json): string | undefined {
  return objectId(activity.actorId) ?? objectId(activity.actor);
}

/** The author's display name, as the activity's actor object gives it. */
export function actorNameOf(activity: Json): string | undefined {
  const actor = isObject(activity.actor) ? activity.actor : {};
  const name = [actor.name, actor.preferredUsername].find((n): n is string => typeof n === 'string' && !!n);
  return name?.slice(0, 200);
}

/** A Create whose object answers something: a reply, not a post. */
export function isReplyObject(object: unknown): object is Json {
  return isObject(object) && objectId(object.inReplyTo) !== undefined;
}

/** An Undo whose object is a reaction. */
export function undoesReaction(activity: Json): boolean {
  const inner = activity.object;
  return isObject(inner) && (inner.type === 'React' || inner.type === 'Like');
}

export interface ReplyWire {
  id: string;
  inReplyTo: string;
  object: Json;
}

/** A reply object of `actorId`'s: its id on the author's domain, attributed to them. */
export function readReply(object: unknown, actorId: string): Read<ReplyWire> {
  if (!isObject(object)) return bad('object: an object is required');
  const id = objectId(object);
  const inReplyTo = objectId(object.inReplyTo);
  if (!id) return bad('object.id: is required');
  if (!inReplyTo) return bad('object.inReplyTo: is required');
  if (domainOf(id) !== domainOf(actorId)) return bad("object.id: must be on its author's domain");
  const author = objectId(object.attributedTo) ?? actorId;
  if (author !== actorId) return bad('object.attributedTo: must be the activity actor');
  return { ok: true, value: { id, inReplyTo, object } };
}

export interface ReactionWire {
  /** The reaction's own id (on its author's domain). */
  id: string;
  /** The reacted-to post or reply. */
  target: string;
  emoji: string;
  name?: string;
}

/** The reacted-to object: `to`, else `target`. */
function targetOf(activity: Json): string | undefined {
  return objectId(activity.to) ?? objectId(activity.target);
}

/** The reaction's id, on its author's domain. */
function reactionId(object: Json, actorId: string): Read<string> {
  const id = objectId(object);
  if (!id) return bad('object.id: the reaction id is required');
  if (domainOf(id) !== domainOf(actorId)) return bad("object.id: must be on its author's domain");
  return { ok: true, value: id };
}

/** A React: `{ to: <target>, object: { id, emoji, name? } }`. */
export function readReaction(activity: Json, actorId: string): Read<ReactionWire> {
  const object = activity.object;
  if (!isObject(object)) return bad('object: the reaction is required');
  const id = reactionId(object, actorId);
  if (!id.ok) return id;
  const target = targetOf(activity);
  if (!target) return bad('to: the reacted-to object is required');
  const emoji = emojiString.safeParse(object.emoji ?? object.content);
  if (!emoji.success) return bad('object.emoji: must be an emoji or a short label');
  const name = typeof object.name === 'string' ? object.name.trim().slice(0, 100) : undefined;
  return { ok: true, value: { id: id.value, target, emoji: emoji.data, ...(name ? { name } : {}) } };
}

/** An Undo of a React: `{ object: { type: 'React', to: <target>, object: { id } } }`. */
export function readUnreact(activity: Json, actorId: string): Read<{ id: string; target: string }> {
  const inner = activity.object;
  if (!isObject(inner)) return bad('object: the undone reaction is required');
  const target = targetOf(inner);
  if (!target) return bad('object.to: the reacted-to object is required');
  const reaction = isObject(inner.object) ? inner.object : { id: inner.object };
  const id = reactionId(reaction, actorId);
  return id.ok ? { ok: true, value: { id: id.value, target } } : id;
}
