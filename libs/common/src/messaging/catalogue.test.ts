import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '../logger';
import {
  ACTIVITY_TYPES,
  EVENTS,
  JOBS,
  activityEventName,
  type EventName,
  type EventPayload,
  type JobName,
  type JobPayload,
} from './catalogue';
import { VERSION_HEADER, createEventBus, decodeEvent, decodeJob, domainEvent } from './events';
import { createMemoryBus } from './memory';
import { PermanentMessageError, type BusMessage } from './types';

const U = '@alice@social.test';
const V = '@bob@social.test';
const POST = 'post:0123456789abcdef01234567@social.test';
const changed = { objectId: POST, objectType: 'Post', actorId: U, ownerId: U, fields: ['to'] };
const removed = { objectId: POST, objectType: 'Post', actorId: U, ownerId: null };
const relation = { actorId: U, targetId: V, circleId: 'circle:1@social.test' };
const groupChange = { groupId: 'group:1@social.test', memberId: V, actorId: U };
const activity = { activityId: 'activity:1@social.test', actorId: U, objectId: POST };

const activityExamples = Object.fromEntries(ACTIVITY_TYPES.map((t) => [activityEventName(t), activity])) as {
  [N in EventName as N extends `activity.${string}` ? N : never]: EventPayload<N>;
};

/** One valid payload per entry: the mapped type makes a missing entry a compile error. */
const EVENT_EXAMPLES: { [N in EventName]: EventPayload<N> } = {
  'post.created': { postId: POST, actorId: U, to: '@public', type: 'Note' },
  'post.updated': changed,
  'post.deleted': removed,
  'circle.created': { circleId: 'circle:1@social.test', actorId: U, to: U },
  'circle.updated': changed,
  'circle.deleted': removed,
  'group.created': { groupId: 'group:1@social.test', actorId: U, to: '@public', rsvpPolicy: 'open' },
  'group.updated': changed,
  'group.deleted': removed,
  'page.created': { pageId: 'page:1@social.test', actorId: U, slug: 'about', to: '@public' },
  'page.updated': changed,
  'page.deleted': removed,
  'bookmark.created': {
    bookmarkId: 'bookmark:1@social.test',
    actorId: U,
    to: U,
    type: 'Bookmark',
    parentFolder: null,
    target: POST,
  },
  'bookmark.updated': changed,
  'bookmark.deleted': removed,
  'reply.created': {
    replyId: 'reply:1@social.test',
    rootId: POST,
    parentId: POST,
    actorId: V,
    recipientId: U,
  },
  'reply.updated': changed,
  'reply.deleted': removed,
  'react.added': { reactId: 'react:1@social.test', target: POST, actorId: V, recipientId: U, emoji: '👍' },
  'react.removed': { reactId: 'react:1@social.test', target: POST, actorId: V },
  'react.updated': changed,
  'react.deleted': { ...removed, target: POST },
  'reply.refused': { replyId: 'reply:1@peer.test', rootId: POST, actorId: V, reason: 'canReply' },
  'react.refused': { reactId: 'react:1@peer.test', target: POST, actorId: V, reason: 'canReact' },
  'flag.created': {
    flagId: 'flag:1@social.test',
    target: POST,
    targetType: 'Post',
    targetActorId: U,
    actorId: V,
    reason: 'spam',
  },
  'member.added': { circleId: 'circle:1@social.test', ownerId: U, memberId: V, actorId: U },
  'member.removed': { circleId: 'circle:1@social.test', memberId: V, actorId: U },
  'group.join_requested': { groupId: 'group:1@social.test', actorId: V, adminIds: [U] },
  'group.join_approved': groupChange,
  'group.join_rejected': groupChange,
  'group.join_sent': { groupId: 'group:1@social.test', actorId: U },
  'group.leave_sent': { groupId: 'group:1@social.test', actorId: U },
  'group.post_received': {
    groupId: 'group:1@social.test',
    postId: POST,
    change: 'create',
    originDomain: 'b.test',
  },
  'group.member_blocked': groupChange,
  'group.member_unblocked': { ...groupChange, role: 'blocked' },
  'group.role_added': { ...groupChange, role: 'admins' },
  'group.role_removed': { ...groupChange, role: 'admins' },
  'user.registered': { userId: U, username: 'alice' },
  'user.updated': { userId: U, fields: ['profile'], name: 'Alice', icon: null },
  'user.deleted': { userId: U, actorId: U },
  'user.restored': { userId: U, actorId: '@root_admin@social.test' },
  'user.followed': relation,
  'user.unfollowed': relation,
  'user.blocked': relation,
  'user.unblocked': relation,
  'user.muted': relation,
  'user.unmuted': relation,
  'notification.created': { recipientId: U, type: 'reply' },
  'invite.redeemed': { inviteId: 'invite:1@social.test', userId: V, inviterId: U },
  'inbox.accepted': {
    activityId: 'activity:1@social.test',
    remoteId: 'https://peer.test/activities/1',
    type: 'Create',
    signerDomain: 'peer.test',
  },
  ...activityExamples,
};

const JOB_EXAMPLES: { [Q in JobName]: JobPayload<Q> } = {
  'federation.deliver': {
    inbox: 'https://peer.test/inbox',
    domain: 'peer.test',
    activity: { id: 'https://social.test/posts/1#create', type: 'Create' },
    attempt: 1,
  },
  'backup.run': { jobId: '0123456789abcdef01234567' },
  'restore.run': { jobId: '0123456789abcdef01234567' },
};

const ENTRIES = [
  ...Object.entries(EVENTS).map(([name, e]) => ({
    name,
    entry: e,
    example: EVENT_EXAMPLES[name as EventName],
  })),
  ...Object.entries(JOBS).map(([name, e]) => ({
    name,
    entry: e,
    example: JOB_EXAMPLES[name as JobName],
  })),
];

function message(name: string, payload: unknown, headers: Record<string, string> = {}): BusMessage {
  return { id: 'm1', name, payload, headers, attempt: 1, publishedAt: new Date().toISOString() };
}

describe('the event catalogue', () => {
  it.each(ENTRIES)('$name: a valid example parses unchanged', ({ entry, example }) => {
    expect(entry.schema.parse(example)).toEqual(example);
  });

  it.each(ENTRIES)(
    '$name: every field of the example, replaced by an operator object, is refused',
    ({ entry, example }) => {
      for (const key of Object.keys(example)) {
        const bad = { ...example, [key]: { $ne: null } };
        expect({ key, ok: entry.schema.safeParse(bad).success }).toEqual({ key, ok: false });
      }
      expect(entry.schema.safeParse(null).success).toBe(false);
    },
  );

  it('versions are positive integers, names are `<noun>.<verb>`, and no event shares a name with a job', () => {
    for (const { name, entry } of ENTRIES) {
      expect(Number.isInteger(entry.version) && entry.version >= 1).toBe(true);
      expect(name).toMatch(/^[a-z]+\.[a-z_]+$/);
    }
    expect(Object.keys(EVENTS).filter((n) => Object.hasOwn(JOBS, n))).toEqual([]);
  });

  it('names `activity.<type>` for the listed activity types only', () => {
    expect(activityEventName('Follow')).toBe('activity.follow');
    expect(() => activityEventName('Explode')).toThrow(TypeError);
    expect(() => activityEventName('__proto__')).toThrow(TypeError);
  });

  it('is documented: docs/messaging.md has a row for every entry with its version', () => {
    const doc = readFileSync(join(__dirname, '../../../../docs/messaging.md'), 'utf8');
    const missing = ENTRIES.filter(({ name, entry }) => {
      const row = new RegExp(`^\\| \`${name.replace('.', '\\.')}\`\\s*\\| ${entry.version}\\s*\\|`, 'm');
      const activityRow = name.startsWith('activity.') && /^\| `activity\.<type>`\s*\| 1\s*\|/m.test(doc);
      return !row.test(doc) && !activityRow;
    }).map((e) => e.name);
    expect(missing).toEqual([]);
  });
});

describe('producing', () => {
  it('domainEvent checks the payload before anything is recorded', () => {
    expect(domainEvent('user.followed', relation)).toEqual({ name: 'user.followed', payload: relation });
    // @ts-expect-error: a wrong payload type is a compile error...
    expect(() => domainEvent('user.followed', { actorId: U, targetId: 7, circleId: 'c' })).toThrow(
      'user.followed: payload.targetId',
    );
    // @ts-expect-error: ...and so is a missing field...
    expect(() => domainEvent('post.created', { postId: POST, actorId: U, to: '@public' })).toThrow(TypeError);
    // @ts-expect-error: ...and a name the catalogue does not hold.
    expect(() => domainEvent('post.exploded', {})).toThrow(TypeError);
  });

  it('the typed bus sends the entry version in x-event-version and refuses a wrong payload', async () => {
    const logger = createLogger({ level: 'silent', service: 'test' });
    const raw = createMemoryBus({ logger });
    const events = createEventBus(raw, logger);
    const got: BusMessage[] = [];
    await raw.subscribe('probe', ['user.registered'], (m) => {
      got.push(m);
      return Promise.resolve();
    });
    await events.publish('user.registered', { userId: U, username: 'alice' });
    // @ts-expect-error: the username must be a string
    await expect(events.publish('user.registered', { userId: U, username: 1 })).rejects.toThrow(TypeError);
    // @ts-expect-error: jobs go to queues of the catalogue only
    await expect(events.enqueue('nobody.works', {})).rejects.toThrow();
    const until = Date.now() + 2000;
    while (!got.length && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(got).toHaveLength(1);
    expect(got[0]!.headers[VERSION_HEADER]).toBe(String(EVENTS['user.registered'].version));
    await raw.close();
  });
});

describe('consuming', () => {
  const names = ['user.followed'] as const;

  it('decodeEvent returns the parsed message, without fields the schema does not name', () => {
    const msg = decodeEvent(
      message('user.followed', { ...relation, extra: 'x' }, { [VERSION_HEADER]: '1' }),
      names,
    );
    expect(msg.payload).toEqual(relation);
    expect(msg.payload.targetId).toBe(V);
  });

  it.each([
    ['a payload that does not parse', message('user.followed', { ...relation, targetId: { $ne: null } })],
    ['an event the consumer does not read', message('user.muted', relation)],
    ['a name outside the catalogue', message('user.exploded', relation)],
    ['another version', message('user.followed', relation, { [VERSION_HEADER]: '2' })],
  ])('refuses %s with a PermanentMessageError saying why', (_what, msg) => {
    expect(() => decodeEvent(msg, names)).toThrow(PermanentMessageError);
  });

  it('the error names the event and the field', () => {
    expect(() => decodeEvent(message('user.followed', { ...relation, targetId: 3 }), names)).toThrow(
      /^user\.followed v1: payload\.targetId: /,
    );
  });

  it('decodeJob parses a job of its queue', () => {
    expect(
      decodeJob(message('backup.run', { jobId: '0123456789abcdef01234567' }), 'backup.run').payload,
    ).toEqual({ jobId: '0123456789abcdef01234567' });
    expect(() => decodeJob(message('backup.run', { jobId: 'x' }), 'backup.run')).toThrow(
      PermanentMessageError,
    );
  });
});
