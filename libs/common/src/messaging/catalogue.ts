/**
 * The event and job catalogue (issue 8, style.md §8): every event name and every work queue the
 * services use, each with a version and the zod schema of its payload. Producers and consumers
 * import these definitions and nothing else, so a payload is declared once; the typed bus
 * (events.ts) refuses an unknown name or a wrong payload at compile time, and every consumer
 * parses what it receives with the same schema, dead-lettering what does not match.
 *
 * Versions: bump an entry's version when its payload changes in a way an existing consumer cannot
 * read (a field removed, renamed or retyped); adding an optional field is not a new version.
 * docs/messaging.md lists who produces and consumes each entry.
 */
import { z } from 'zod';

export interface CatalogueEntry<S extends z.ZodType = z.ZodType> {
  readonly version: number;
  readonly schema: S;
}

function entry<S extends z.ZodType>(version: number, schema: S): CatalogueEntry<S> {
  return { version, schema };
}

// Bounds, not business rules: the producers validate their input; these keep a stray message small.
const id = z.string().min(1).max(2000);
const audience = z.string().max(2000);

/** An object changed: which of its fields (federation re-sends a post whose `to` changed). */
const changed = z.object({
  objectId: id,
  objectType: z.string().min(1).max(50),
  actorId: id,
  ownerId: id.nullable(),
  fields: z.array(z.string().max(100)).max(100),
});

/** An object was (soft-)deleted by `actorId`; `ownerId` is its author. */
const removed = z.object({
  objectId: id,
  objectType: z.string().min(1).max(50),
  actorId: id,
  ownerId: id.nullable(),
});

/** A local user changed their relation to another user (Follow, Block, Mute and their undos). */
const relation = z.object({ actorId: id, targetId: id, circleId: id });

/** A group admin changed someone's place in a group. */
const groupChange = z.object({ groupId: id, memberId: id, actorId: id });
const groupRole = groupChange.extend({ role: z.string().min(1).max(50) });

/** Every recorded activity, local or by an admin: `activity.<type in lower case>`. */
const activityRecorded = z.object({ activityId: id, actorId: id, objectId: id.nullable() });

/** The activity types the pipeline (social) and the admin API record. */
export const ACTIVITY_TYPES = [
  'Create',
  'Add',
  'Remove',
  'Join',
  'Leave',
  'Reject',
  'Reply',
  'React',
  'Update',
  'Delete',
  'Flag',
  'Undo',
  'Block',
  'Unblock',
  'Mute',
  'Unmute',
  'Follow',
  'Unfollow',
  'Restore',
  'Announce',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
export type ActivityEventName = `activity.${Lowercase<ActivityType>}`;

const activityEntries = Object.fromEntries(
  ACTIVITY_TYPES.map((t) => [`activity.${t.toLowerCase()}`, entry(1, activityRecorded)]),
) as Record<ActivityEventName, CatalogueEntry<typeof activityRecorded>>;

export const EVENTS = {
  // Content: posts, circles, groups, pages, bookmarks, replies and reactions.
  'post.created': entry(1, z.object({ postId: id, actorId: id, to: audience, type: z.string().max(50) })),
  // `previousTo`: the audience before, when this change moved it (federation withdraws the post
  // from servers the new audience leaves out).
  'post.updated': entry(1, changed.extend({ previousTo: audience.optional() })),
  'post.deleted': entry(1, removed),
  'circle.created': entry(1, z.object({ circleId: id, actorId: id, to: audience })),
  'circle.updated': entry(1, changed),
  'circle.deleted': entry(1, removed),
  'group.created': entry(
    1,
    z.object({ groupId: id, actorId: id, to: audience, rsvpPolicy: z.string().max(50) }),
  ),
  'group.updated': entry(1, changed),
  'group.deleted': entry(1, removed),
  'page.created': entry(1, z.object({ pageId: id, actorId: id, slug: z.string().max(500), to: audience })),
  'page.updated': entry(1, changed),
  'page.deleted': entry(1, removed),
  'bookmark.created': entry(
    1,
    z.object({
      bookmarkId: id,
      actorId: id,
      to: audience,
      type: z.enum(['Bookmark', 'Folder']),
      parentFolder: id.nullable(),
      target: id.optional(),
    }),
  ),
  'bookmark.updated': entry(1, changed),
  'bookmark.deleted': entry(1, removed),
  'reply.created': entry(
    1,
    z.object({ replyId: id, rootId: id, parentId: id, actorId: id, recipientId: id.nullish() }),
  ),
  'reply.updated': entry(1, changed),
  'reply.deleted': entry(1, removed),
  'react.added': entry(
    1,
    z.object({
      reactId: id,
      target: id,
      actorId: id,
      recipientId: id.nullish(),
      emoji: z.string().min(1).max(100),
    }),
  ),
  'react.removed': entry(1, z.object({ reactId: id, target: id, actorId: id })),
  'react.updated': entry(1, changed),
  'react.deleted': entry(1, removed.extend({ target: id })),
  /** A thread's server refused a remote author's reply or reaction: their server is told. */
  'reply.refused': entry(1, z.object({ replyId: id, rootId: id, actorId: id, reason: z.string().max(500) })),
  'react.refused': entry(1, z.object({ reactId: id, target: id, actorId: id, reason: z.string().max(500) })),
  'flag.created': entry(
    1,
    z.object({
      flagId: id,
      target: id,
      targetType: z.string().min(1).max(50),
      targetActorId: id.nullable(),
      actorId: id,
      reason: z.string().min(1).max(500),
    }),
  ),

  // Membership of circles (a group's members are its members circle: `ownerId` is the group).
  'member.added': entry(
    1,
    z.object({ circleId: id, ownerId: id, memberId: id, actorId: id, groupId: id.optional() }),
  ),
  'member.removed': entry(
    1,
    z.object({ circleId: id, memberId: id, actorId: id, ownerId: id.optional(), groupId: id.optional() }),
  ),
  'group.join_requested': entry(1, z.object({ groupId: id, actorId: id, adminIds: z.array(id).max(10_000) })),
  'group.join_approved': entry(1, groupChange),
  'group.join_rejected': entry(1, groupChange),
  // A local user's Join or Leave of another server's group, sent there (its server decides).
  'group.join_sent': entry(1, z.object({ groupId: id, actorId: id })),
  'group.leave_sent': entry(1, z.object({ groupId: id, actorId: id })),
  // A remote member's post to a local group, applied here: passed on to its other servers.
  'group.post_received': entry(
    1,
    z.object({
      groupId: id,
      postId: id,
      change: z.enum(['create', 'update', 'delete']),
      originDomain: z.string().min(1).max(300),
    }),
  ),
  'group.member_blocked': entry(1, groupChange),
  'group.member_unblocked': entry(1, groupRole),
  'group.role_added': entry(1, groupRole),
  'group.role_removed': entry(1, groupRole),

  // A notification was stored for a local user (the live stream tells them: ADR 0020).
  'notification.created': entry(1, z.object({ recipientId: id, type: z.string().min(1).max(50) })),

  // People.
  'user.registered': entry(1, z.object({ userId: id, username: z.string().min(1).max(100) })),
  'user.updated': entry(
    1,
    z.object({
      userId: id,
      fields: z.array(z.string().max(100)).max(100),
      // Name and icon ride along so consumers refresh denormalised copies without a read.
      name: z.string().max(500).nullable(),
      icon: z.string().max(2000).nullable(),
    }),
  ),
  'user.deleted': entry(
    1,
    z.object({
      userId: id,
      /** Who deleted it: the user themselves or an admin. */
      actorId: id,
      /** The document is gone for good (admin full delete), not only soft-deleted. */
      hard: z.boolean().optional(),
      /**
       * An admin's soft delete (ADR 0028): a reversible suspension, its content kept; peers get an
       * Update of the actor marked suspended, never a Delete. Absent for the owner's own delete.
       */
      suspension: z.boolean().optional(),
    }),
  ),
  'user.restored': entry(1, z.object({ userId: id, actorId: id })),
  'user.followed': entry(1, relation),
  'user.unfollowed': entry(1, relation),
  'user.blocked': entry(1, relation),
  'user.unblocked': entry(1, relation),
  'user.muted': entry(1, relation),
  'user.unmuted': entry(1, relation),
  'invite.redeemed': entry(1, z.object({ inviteId: id, userId: id, inviterId: id })),

  // Federation: an inbound activity was verified and stored; social processes it.
  'inbox.accepted': entry(
    1,
    z.object({
      activityId: id,
      remoteId: z.string().min(1).max(2000),
      type: z.string().min(1).max(64),
      signerDomain: z.string().min(1).max(253),
    }),
  ),

  ...activityEntries,
} as const satisfies Record<string, CatalogueEntry>;

const backupJob = z.object({ jobId: z.string().regex(/^[0-9a-f]{24}$/, 'must be a job id') });

export const JOBS = {
  /** One activity to one remote inbox; `attempt` travels because retries are re-enqueued. */
  'federation.deliver': entry(
    1,
    z.object({
      inbox: z.string().min(1).max(2000),
      domain: z.string().min(1).max(253),
      activity: z.looseObject({ id: z.string().min(1).max(2000) }),
      attempt: z.number().int().min(1),
      /**
       * When the local write it tells of was published (the source event's time, ISO): its
       * place in the domain's order while held. Planning runs several events at once, so the
       * job's own publish time can invert two posts written in order.
       */
      writtenAt: z.iso.datetime().optional(),
      /**
       * ActivityPub inbox forwarding: `activity` is another server's, sent unchanged and signed
       * over HTTP by this local actor (its URL).
       */
      forwardedBy: z.string().min(1).max(2000).optional(),
    }),
  ),
  /** The message only names the job: its state lives in the job record (`repos.backupJobs`). */
  'backup.run': entry(1, backupJob),
  'restore.run': entry(1, backupJob),
} as const satisfies Record<string, CatalogueEntry>;

export type EventName = keyof typeof EVENTS;
export type JobName = keyof typeof JOBS;
/** What a consumer receives (and a producer sends) for an event. */
export type EventPayload<N extends EventName> = z.output<(typeof EVENTS)[N]['schema']>;
export type JobPayload<Q extends JobName> = z.output<(typeof JOBS)[Q]['schema']>;

export const BACKUP_RUN_QUEUE = 'backup.run' satisfies JobName;
export const RESTORE_RUN_QUEUE = 'restore.run' satisfies JobName;

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENTS, name);
}

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
}

/** The catalogue entry of an event or a job, if it has one. */
export function entryOf(name: string): CatalogueEntry | undefined {
  if (isEventName(name)) return EVENTS[name];
  if (isJobName(name)) return JOBS[name];
  return undefined;
}

/** `activity.<type>` for an activity type the catalogue lists; anything else is a programming error. */
export function activityEventName(type: string): ActivityEventName {
  if (!(ACTIVITY_TYPES as readonly string[]).includes(type))
    throw new TypeError(`activity type ${type} is not in the event catalogue`);
  return `activity.${type.toLowerCase()}` as ActivityEventName;
}
