/**
 * Turns one intended notification into a stored one (behaviour-notes §6.1), or decides not to:
 * never for the actor's own action, only for live local recipients, honouring
 * `prefs.notifications.<type> === false`, never from someone the recipient blocked or muted,
 * and at most one per (recipient, groupKey) while the previous one is still pending.
 * Idempotent per event: the insert carries `eventId`, whose unique index turns a redelivered
 * event into a duplicate that is treated as done (NotificationsStore.create).
 */
import { mintId } from '@agora/common/db';
import type { BusMessage } from '@agora/common/messaging';
import type { NotificationsContext } from '../context';
import type { NotificationType, UserRecord } from '@agora/common/db';
import { isLocalUser } from './audience';
import { silenced } from './silenced';

export interface Intent {
  type: NotificationType;
  recipientId: string;
  actorId: string;
  objectId?: string;
  objectType?: string;
  href: string;
  groupKey: string;
  summary: (actorName: string) => string;
  /**
   * Set for digests (new posts): a new one only once the previous one of the same groupKey was
   * read (or dismissed) and is older than this. Without it, a pending (unread, not dismissed)
   * one of the same groupKey from the last day stands in for the new event.
   */
  cooldownMs?: number;
}

export type Outcome = 'created' | 'duplicate' | 'self' | 'not_local' | 'opted_out' | 'blocked' | 'grouped';

/** The activity an event came from: the pipeline publishes events as `<activity id>#<n>`. */
export function activityIdOf(messageId: string): string | undefined {
  const head = messageId.split('#')[0] ?? '';
  return head !== messageId && head.startsWith('activity:') ? head : undefined;
}

export function eventKeyOf(msg: BusMessage, intent: Pick<Intent, 'type' | 'recipientId'>): string {
  return `${msg.id}|${intent.type}|${intent.recipientId}`;
}

interface RecipientRow {
  prefs?: { notifications?: Record<string, unknown> } | null;
  circles?: { blocked?: string | null; muted?: string | null } | null;
}

/** Reads a user who acts (name and icon for the summary). */
export type ActorLoader = (id: string) => Promise<UserRecord | null>;

/** An ActorLoader that reads each actor once: an event's notifications all name the same actor. */
export function actorsOnce(ctx: NotificationsContext): ActorLoader {
  const read = new Map<string, Promise<UserRecord | null>>();
  return (id) => {
    let actor = read.get(id);
    if (!actor) read.set(id, (actor = ctx.stores.users.findById(id)));
    return actor;
  };
}

export async function createNotification(
  ctx: NotificationsContext,
  msg: BusMessage,
  intent: Intent,
  actorOf: ActorLoader,
): Promise<Outcome> {
  if (intent.actorId === intent.recipientId) return 'self';
  const domain = ctx.config.DOMAIN;
  // Remote users are notified by their own server when our activity reaches it.
  if (!isLocalUser(intent.recipientId, domain)) return 'not_local';
  const recipient = (await ctx.stores.users.findActiveById(intent.recipientId)) as RecipientRow | null;
  if (!recipient) return 'not_local';
  if (recipient.prefs?.notifications?.[intent.type] === false) return 'opted_out';
  if (await silenced(ctx, recipient, intent.actorId)) return 'blocked';

  const actor = await actorOf(intent.actorId);
  const actorName = actor?.profile?.name || actor?.username || intent.actorId;
  const activityId = activityIdOf(msg.id);
  // The store judges grouping and the event's idempotency in the same step as the insert, so
  // concurrent events of one group make one notification between them.
  return ctx.stores.notifications.create(
    {
      id: mintId('notification', domain),
      type: intent.type,
      recipientId: intent.recipientId,
      actorId: intent.actorId,
      actorName,
      ...(actor?.profile?.icon ? { actorIcon: actor.profile.icon } : {}),
      ...(intent.objectId ? { objectId: intent.objectId } : {}),
      ...(intent.objectType ? { objectType: intent.objectType } : {}),
      ...(activityId ? { activityId } : {}),
      summary: intent.summary(actorName),
      href: intent.href,
      groupKey: intent.groupKey,
      eventId: eventKeyOf(msg, intent),
    },
    intent.cooldownMs === undefined ? {} : { cooldownMs: intent.cooldownMs },
  );
}
