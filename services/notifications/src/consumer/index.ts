/**
 * The notifications consumer (decisions.md §7): one durable queue bound to the social events
 * that mean "something happened to you", one rule per event, checked at start (style.md §8).
 * A payload that does not parse can never succeed, so it is dead-lettered at once; any other
 * failure is retried by the bus, and notifications already written for the event are not
 * written again (their `eventId` is unique).
 */
import type { z } from 'zod';
import { PermanentMessageError, type BusMessage } from '@agora/common/messaging';
import type { Runtime } from '@agora/common/runtime';
import { createNotification, type Intent, type Outcome } from './create';
import {
  onPostCreated,
  onReactAdded,
  onReplyCreated,
  postCreated,
  reactAdded,
  replyCreated,
} from './content-rules';
import {
  joinApproved,
  joinRequested,
  memberAdded,
  onJoinApproved,
  onJoinRequested,
  onMemberAdded,
  onUserFollowed,
  userFollowed,
} from './people-rules';

export const NOTIFICATIONS_QUEUE = 'notifications.events';

interface Rule {
  intents(rt: Runtime, payload: unknown): Promise<Intent[]>;
}

function rule<S extends z.ZodType>(
  schema: S,
  fn: (rt: Runtime, payload: z.infer<S>) => Promise<Intent[]>,
): Rule {
  return {
    intents(rt, payload) {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new PermanentMessageError(
          `payload.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
        );
      }
      return fn(rt, parsed.data);
    },
  };
}

const RULES: Record<string, Rule> = {
  'reply.created': rule(replyCreated, onReplyCreated),
  'react.added': rule(reactAdded, onReactAdded),
  'post.created': rule(postCreated, onPostCreated),
  'user.followed': rule(userFollowed, onUserFollowed),
  'member.added': rule(memberAdded, onMemberAdded),
  'group.join_requested': rule(joinRequested, onJoinRequested),
  'group.join_approved': rule(joinApproved, onJoinApproved),
};

export const CONSUMED_EVENTS = Object.keys(RULES);

/** Handles one event; returns what happened for each intended recipient (for logs and tests). */
export async function handleEvent(rt: Runtime, msg: BusMessage): Promise<Outcome[]> {
  const r = Object.hasOwn(RULES, msg.name) ? RULES[msg.name] : undefined;
  if (!r) throw new PermanentMessageError(`no notification rule for ${msg.name}`);
  const outcomes: Outcome[] = [];
  for (const intent of await r.intents(rt, msg.payload))
    outcomes.push(await createNotification(rt, msg, intent));
  if (outcomes.includes('created'))
    rt.logger.debug({ event: msg.name, id: msg.id, outcomes }, 'notifications written');
  return outcomes;
}

export async function startConsumer(rt: Runtime): Promise<void> {
  await rt.bus.subscribe(NOTIFICATIONS_QUEUE, CONSUMED_EVENTS, async (msg) => {
    await handleEvent(rt, msg);
  });
}
