/**
 * The notifications consumer (decisions.md §7): one durable queue bound to the social events
 * that mean "something happened to you", one rule per event, checked at start (style.md §8).
 * A payload that does not parse can never succeed, so it is dead-lettered at once; any other
 * failure is retried by the bus, and notifications already written for the event are not
 * written again (their `eventId` is unique).
 */
import { decodeEvent, type BusMessage, type EventPayload } from '@agora/common/messaging';
import type { NotificationsContext } from '../context';
import { actorsOnce, createNotification, type Intent, type Outcome } from './create';
import { onPostCreated, onReactAdded, onReplyCreated } from './content-rules';
import { onJoinApproved, onJoinRequested, onMemberAdded, onUserFollowed } from './people-rules';

export const NOTIFICATIONS_QUEUE = 'notifications.events';

type Consumed =
  | 'reply.created'
  | 'react.added'
  | 'post.created'
  | 'user.followed'
  | 'member.added'
  | 'group.join_requested'
  | 'group.join_approved';
type Rules = { [N in Consumed]: (ctx: NotificationsContext, payload: EventPayload<N>) => Promise<Intent[]> };

/** One rule per consumed event; the payload types come from the catalogue. */
const RULES: Rules = {
  'reply.created': onReplyCreated,
  'react.added': onReactAdded,
  'post.created': onPostCreated,
  'user.followed': onUserFollowed,
  'member.added': onMemberAdded,
  'group.join_requested': onJoinRequested,
  'group.join_approved': onJoinApproved,
};

export const CONSUMED_EVENTS = Object.keys(RULES) as Consumed[];

function intentsOf<N extends Consumed>(
  ctx: NotificationsContext,
  msg: { name: N; payload: EventPayload<N> },
) {
  const rule: Rules[N] = RULES[msg.name];
  return rule(ctx, msg.payload);
}

/** Handles one event; returns what happened for each intended recipient (for logs and tests). */
export async function handleEvent(ctx: NotificationsContext, raw: BusMessage): Promise<Outcome[]> {
  // Parsed here too (not only by the subscription) because tests and replays call this directly.
  const msg = decodeEvent(raw, CONSUMED_EVENTS);
  const outcomes: Outcome[] = [];
  const actorOf = actorsOnce(ctx);
  for (const intent of await intentsOf(ctx, msg)) {
    const outcome = await createNotification(ctx, msg, intent, actorOf);
    outcomes.push(outcome);
    if (outcome === 'created') await announce(ctx, msg.id, intent);
  }
  if (outcomes.includes('created'))
    ctx.logger.debug({ event: msg.name, id: msg.id, outcomes }, 'notifications written');
  return outcomes;
}

/**
 * Tells every replica's live streams (ADR 0020). Best effort: the notification is stored, and a
 * lost hint only means the badge waits for its next poll, so a failed publish is not retried
 * (a retry of the event would find the notification written and announce nothing anyway).
 */
async function announce(ctx: NotificationsContext, eventId: string, intent: Intent): Promise<void> {
  const payload = { recipientId: intent.recipientId, type: intent.type };
  try {
    await ctx.events.publish('notification.created', payload, { id: `${eventId}|${intent.recipientId}` });
  } catch (err) {
    ctx.logger.warn({ err, eventId }, 'notification.created not published');
  }
}

export async function startConsumer(ctx: NotificationsContext): Promise<void> {
  await ctx.events.subscribe(NOTIFICATIONS_QUEUE, CONSUMED_EVENTS, async (msg) => {
    await handleEvent(ctx, msg);
  });
}
