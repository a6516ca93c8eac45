/**
 * Remote replies (docs/federation.md, "Threads"): Create of a reply Note, its Update and Delete
 * by its author. A reply is stored under the id its author's server gave it, threaded as a local
 * reply is (root and first-level parent), counted on both, and its events published as a local
 * reply's are: the replied-to author is notified, and the federation planner relays it when the
 * thread is rooted here. The same reply arriving twice (pushed and relayed) is stored once.
 */
import { sensitivityFrom } from '@agora/common/content';
import { DuplicateKeyError } from '@agora/common/db';
import { domainOf } from '@agora/common/federation';
import { domainEvent } from '@agora/common/messaging';
import type { SocialContext } from '../context';
import { bumpObject } from '../activities/handlers/interactions/counters';
import type { Inbound, Outcome } from './apply';
import { contentOf, isObject, objectId, type Json } from './shape';
import { actorNameOf, readReply } from './thread-shape';
import { authorRef, denied, ignored, isThread, rejected, threadAt, trusted, untrusted } from './thread';

/**
 * The stored body of a reply: sanitised HTML, its markdown when the peer sent it, its content
 * warning and sensitivity (ADR 0021).
 */
function bodyOf(object: Json) {
  const { body, text, mediaType } = contentOf(object);
  const source = isObject(object.source) ? object.source : undefined;
  const markdown =
    typeof source?.content === 'string' && source.mediaType === 'text/markdown'
      ? { content: source.content.slice(0, 100_000), mediaType: 'text/markdown' }
      : undefined;
  return { body, source: markdown ?? { content: text, mediaType }, ...sensitivityFrom(object) };
}

/** Why the parent is not held, with why the thread above could not be had (ancestors.ts), if said. */
function withMissing(outcome: Outcome, missing: unknown): Outcome {
  if (typeof missing !== 'string' || !missing) return outcome;
  return { ...outcome, reason: `${outcome.reason ?? outcome.status}: ${missing.slice(0, 500)}` };
}

export async function createReply(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const read = readReply(a.activity.object, a.actorId);
  if (!read.ok) return rejected(read.reason);
  const { id, inReplyTo, object } = read.value;
  const thread = await threadAt(ctx, inReplyTo);
  if (!isThread(thread)) return withMissing(thread, a.activity.ancestorsMissing);
  const trust = trusted(a, thread);
  if ('status' in trust) return trust;
  const rootId = thread.root.doc.id;
  const refused = trust.verdict === 'check' ? await denied(ctx, a.actorId, thread, 'canReply') : undefined;
  if (refused) {
    const told = { replyId: id, rootId, actorId: a.actorId, reason: refused.reason ?? '' };
    return { ...refused, events: [domainEvent('reply.refused', told)] };
  }
  try {
    await ctx.stores.replies.create({
      id,
      actorId: a.actorId,
      actor: authorRef(a.actorId, actorNameOf(a.activity)),
      server: `@${domainOf(a.actorId) ?? ''}`,
      originDomain: domainOf(a.actorId),
      url: typeof object.url === 'string' && /^https?:\/\//.test(object.url) ? object.url : id,
      target: rootId,
      parent: thread.parentId,
      ...bodyOf(object),
    });
  } catch (err) {
    if (err instanceof DuplicateKeyError) return ignored('the reply exists already');
    throw err;
  }
  await bumpObject(ctx, rootId, 'replyCount', 1);
  if (thread.parentId !== rootId) await bumpObject(ctx, thread.parentId, 'replyCount', 1);
  return {
    status: 'processed',
    events: [
      domainEvent('reply.created', {
        replyId: id,
        rootId,
        parentId: thread.parentId,
        actorId: a.actorId,
        recipientId: thread.target.doc.actorId ?? null,
      }),
    ],
  };
}

/** A remote reply held here, of this author, and the thread it is in; or why not. */
async function ownReply(ctx: SocialContext, a: Inbound, id: string | undefined) {
  const reply = id ? await ctx.stores.replies.liveById(id) : null;
  if (!reply || reply.actorId !== a.actorId) return ignored('no reply of this author has that id here');
  const thread = await threadAt(ctx, reply.target);
  if (!isThread(thread)) return thread;
  return untrusted(a, thread) ?? { reply, thread };
}

/** The object's `updated` (when its author's server edited it), as an ISO date; undefined when none. */
function editedAt(object: Json): string | undefined {
  const raw = typeof object.updated === 'string' ? new Date(object.updated) : undefined;
  return raw && !Number.isNaN(raw.getTime()) ? raw.toISOString() : undefined;
}

/**
 * An edit is applied when it is newer than the one held: an Update whose `updated` is not later
 * than the held edit's (`remoteUpdated`), or that has none once a dated edit is held, is an older
 * edit (replayed, forwarded again, or late) and would roll the reply back.
 */
export async function updateReply(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const object = a.activity.object;
  if (!isObject(object)) return rejected('object: an object is required');
  const found = await ownReply(ctx, a, objectId(object));
  if (!('reply' in found)) return found;
  const edited = editedAt(object);
  const held = found.reply.remoteUpdated;
  if (held && (!edited || edited <= held)) return ignored('the reply holds a newer edit already');
  const set = bodyOf(object);
  await ctx.stores.replies.set(found.reply.id, { ...set, ...(edited ? { remoteUpdated: edited } : {}) });
  return {
    status: 'processed',
    events: [
      domainEvent('reply.updated', {
        objectId: found.reply.id,
        objectType: 'Reply',
        actorId: a.actorId,
        ownerId: a.actorId,
        fields: Object.keys(set),
      }),
    ],
  };
}

export async function deleteReply(ctx: SocialContext, a: Inbound): Promise<Outcome> {
  const found = await ownReply(ctx, a, objectId(a.activity.object));
  if (!('reply' in found)) return found;
  const { reply } = found;
  const first = await ctx.stores.replies.softDelete(reply.id, {
    deletedAt: new Date(),
    deletedBy: a.actorId,
    type: 'Tombstone',
  });
  if (!first) return ignored('the reply is deleted already');
  await bumpObject(ctx, reply.target, 'replyCount', -1);
  if (reply.parent && reply.parent !== reply.target) await bumpObject(ctx, reply.parent, 'replyCount', -1);
  return {
    status: 'processed',
    events: [
      domainEvent('reply.deleted', {
        objectId: reply.id,
        objectType: 'Reply',
        actorId: a.actorId,
        ownerId: a.actorId,
      }),
    ],
  };
}

/** Whether an Update or Delete is about a reply held here (rather than a post). */
export async function namesHeldReply(ctx: SocialContext, object: unknown): Promise<boolean> {
  const id = objectId(object);
  return !!id && !!(await ctx.stores.replies.byId(id));
}
