/**
 * The delivery planner for threads (docs/federation.md, "Threads"): replies and reactions, their
 * edits and removals, made here or applied from another server, go where thread-route.ts says:
 * to every server holding a copy of the root post (deliveryTargets), relayed by this server when
 * the author is remote, or to the root's own server when the thread is another server's. Only
 * threads of posts travel (pages, bookmarks, circles and groups are not copied to other servers).
 * An ActivityPub server gets a remote author's signed public reply forwarded instead of the
 * relay (activitypub/forward.ts, ADR 0031).
 */
import { parseId, type PostDoc } from '@agora/common/db';
import { domainOf, sharedInboxOf } from '@agora/common/federation';
import type { EventMessage } from '@agora/common/messaging';
import type { FederationContext } from '../context';
import type { OutgoingActivity } from './activity';
import { deliveryTargets } from './audience';
import { enqueueDelivery } from './job';
import {
  reactActivity,
  rejectActivity,
  relayActivity,
  replyActivity,
  unreactActivity,
  type ReplyChange,
} from './thread-activity';
import { threadRoute } from './thread-route';
import { forwardedOriginal } from '../activitypub/forward';
import { localUrlOf } from '../activitypub/ids';
import { speaksActivityPub } from '../activitypub/wire';

export const THREAD_EVENTS = [
  'reply.created',
  'reply.updated',
  'reply.deleted',
  'react.added',
  'react.updated',
  'react.removed',
  'react.deleted',
  'reply.refused',
  'react.refused',
] as const;
export type ThreadEvent = EventMessage<(typeof THREAD_EVENTS)[number]>;

/** What one event says happened in a thread. */
interface Interaction {
  authorId: string;
  byAuthor: boolean;
  /** The thread's root post. */
  root: PostDoc;
  /** The activity that says it, given the root. */
  activity: OutgoingActivity;
}

/** The live root post of the thread an object (a post, or a reply) belongs to. */
async function rootOf(ctx: FederationContext, id: string): Promise<PostDoc | undefined> {
  const kind = parseId(id).kind;
  let rootId = id;
  if (kind === 'reply') {
    const reply = await ctx.stores.replies.byId(id);
    if (!reply) return undefined;
    rootId = reply.target;
  } else if (kind !== 'post') return undefined;
  const root = await ctx.stores.posts.byId(rootId);
  return root && !root.deletedAt ? root : undefined;
}

async function replyInteraction(
  ctx: FederationContext,
  msg: EventMessage<'reply.created' | 'reply.updated' | 'reply.deleted'>,
): Promise<Interaction | undefined> {
  let replyId: string;
  let change: ReplyChange;
  let byAuthor = true;
  if (msg.name === 'reply.created') {
    replyId = msg.payload.replyId;
    change = 'create';
  } else {
    replyId = msg.payload.objectId;
    change = msg.name === 'reply.updated' ? 'update' : 'delete';
    byAuthor = msg.payload.actorId === msg.payload.ownerId;
  }
  const reply = await ctx.stores.replies.byId(replyId);
  // A reply deleted before its creation or edit was planned: its Delete says what is left to say.
  if (!reply || (change !== 'delete' && reply.deletedAt)) return undefined;
  const root = await rootOf(ctx, reply.target);
  if (!root) return undefined;
  return {
    authorId: reply.actorId,
    byAuthor,
    root,
    activity: replyActivity(ctx, change, reply, root, msg.id),
  };
}

async function reactionInteraction(
  ctx: FederationContext,
  msg: EventMessage<'react.added' | 'react.updated' | 'react.removed' | 'react.deleted'>,
): Promise<Interaction | undefined> {
  switch (msg.name) {
    case 'react.added':
    case 'react.updated': {
      const id = msg.name === 'react.added' ? msg.payload.reactId : msg.payload.objectId;
      // The reaction as it is now: one removed since is said by its own event's Undo.
      const reaction = await ctx.stores.reacts.byId(id);
      if (!reaction) return undefined;
      const root = await rootOf(ctx, reaction.target);
      if (!root) return undefined;
      const byAuthor = msg.name === 'react.added' || msg.payload.actorId === msg.payload.ownerId;
      return {
        authorId: reaction.actorId,
        byAuthor,
        root,
        activity: reactActivity(ctx, reaction, root, msg.id),
      };
    }
    case 'react.removed':
    case 'react.deleted': {
      const p = msg.payload;
      const ref =
        msg.name === 'react.removed'
          ? { id: msg.payload.reactId, actorId: msg.payload.actorId, target: p.target }
          : {
              id: msg.payload.objectId,
              actorId: msg.payload.ownerId ?? msg.payload.actorId,
              target: p.target,
            };
      const root = await rootOf(ctx, ref.target);
      if (!root) return undefined;
      return {
        authorId: ref.actorId,
        byAuthor: msg.name === 'react.removed' || msg.payload.actorId === ref.actorId,
        root,
        activity: unreactActivity(ctx, ref, root, msg.id),
      };
    }
  }
}

/** A remote author's reply or reaction was refused here: their server, which holds it, is told. */
async function planRefusal(
  ctx: FederationContext,
  msg: EventMessage<'reply.refused' | 'react.refused'>,
): Promise<number> {
  const p = msg.payload;
  const refused =
    msg.name === 'reply.refused'
      ? { id: msg.payload.replyId, target: msg.payload.rootId, reason: p.reason }
      : { id: msg.payload.reactId, target: msg.payload.target, reason: p.reason };
  const domain = domainOf(p.actorId);
  if (!domain || domain === ctx.config.DOMAIN) return 0;
  await enqueueDelivery(
    ctx,
    { inbox: sharedInboxOf(ctx.config, domain), domain },
    rejectActivity(ctx, refused, msg.id),
    msg.publishedAt,
  );
  return 1;
}

/**
 * A remote author's reply (its creation, edit or removal) in a public thread rooted here, to
 * forward to ActivityPub servers: the activity as its author's server signed it, forwarded by the
 * thread's author (as Mastodon forwards replies to the followers of the replied-to account).
 */
async function forwardOf(
  ctx: FederationContext,
  msg: ThreadEvent,
  root: PostDoc,
): Promise<{ activity: OutgoingActivity; by: string } | undefined> {
  if (root.to !== '@public') return undefined;
  const replyId =
    msg.name === 'reply.created'
      ? msg.payload.replyId
      : msg.name === 'reply.updated' || msg.name === 'reply.deleted'
        ? msg.payload.objectId
        : undefined;
  if (!replyId) return undefined;
  const by = localUrlOf(ctx.config, root.actorId);
  const original = by ? await forwardedOriginal(ctx, msg.id, replyId) : undefined;
  return by && original ? { activity: original as OutgoingActivity, by } : undefined;
}

/** Plans the deliveries of one thread event; how many were enqueued. */
export async function planThread(ctx: FederationContext, msg: ThreadEvent): Promise<number> {
  if (msg.name === 'reply.refused' || msg.name === 'react.refused') return planRefusal(ctx, msg);
  const it =
    msg.name === 'reply.created' || msg.name === 'reply.updated' || msg.name === 'reply.deleted'
      ? await replyInteraction(ctx, msg)
      : await reactionInteraction(ctx, msg);
  if (!it) return 0;
  const route = threadRoute({
    domain: ctx.config.DOMAIN,
    rootOrigin: it.root.originDomain || null,
    authorId: it.authorId,
    byAuthor: it.byAuthor,
  });
  switch (route.to) {
    case 'nobody':
      return 0;
    case 'owner':
      await enqueueDelivery(
        ctx,
        { inbox: sharedInboxOf(ctx.config, route.domain), domain: route.domain },
        it.activity,
        msg.publishedAt,
      );
      return 1;
    case 'copies': {
      const { targets: all } = await deliveryTargets(ctx, it.root);
      const targets = all.filter((t) => t.domain !== route.except);
      const activity = route.relay ? relayActivity(ctx, it.activity, msg.id) : it.activity;
      // ActivityPub servers get a remote author's reply as its own server signed it (forward.ts).
      const forward = route.relay ? await forwardOf(ctx, msg, it.root) : undefined;
      for (const t of targets) {
        if (forward && (await speaksActivityPub(ctx, t.domain)))
          await enqueueDelivery(ctx, t, forward.activity, msg.publishedAt, forward.by);
        else await enqueueDelivery(ctx, t, activity, msg.publishedAt);
      }
      return targets.length;
    }
  }
}
