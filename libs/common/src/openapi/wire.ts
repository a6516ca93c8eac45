/**
 * Response bodies the web app reads, as zod schemas registered under their component names
 * (`#/components/schemas/<name>`). Each is a subset of what the service sends: the fields a
 * client may rely on; the service may send more (the document never forbids extra fields).
 * The e2e tier parses real responses with these (test/e2e/openapi.test.ts), so a field that
 * stops being sent, or changes type, fails a test.
 */
import { z } from 'zod';

export const wireRegistry = z.registry<{ id: string }>();

function component<S extends z.ZodType>(id: string, schema: S): S {
  wireRegistry.add(schema, { id });
  return schema;
}

const str = z.string();
const optStr = z.string().optional();
const nullableStr = z.string().nullable();
/** Content warning and sensitive media (ADR 0021): absent on documents written before them. */
const sensitivity = { contentWarning: optStr, sensitive: z.boolean().optional() };

export const Profile = component(
  'Profile',
  z.object({ name: optStr, description: optStr, icon: optStr, image: optStr }),
);

export const SessionUser = component(
  'SessionUser',
  z.object({
    id: str,
    username: str,
    email: nullableStr,
    emailVerified: z.boolean(),
    profile: Profile,
    following: nullableStr,
    allFollowing: nullableStr,
    blocked: nullableStr,
    muted: nullableStr,
    groups: nullableStr,
    isServerAdmin: z.boolean(),
    isModerator: z.boolean(),
  }),
);

export const ServerConfig = component(
  'ServerConfig',
  z.object({
    domain: str,
    siteTitle: str,
    registrationIsOpen: z.boolean(),
    requireEmailVerification: z.boolean().optional(),
    rules: z.array(z.object({ id: str, text: str })).optional(),
    reactEmojis: z.array(z.object({ emoji: str, name: str })).optional(),
    flagOptions: z.array(z.object({ code: str, label: str })).optional(),
  }),
);

export const Author = component(
  'Author',
  z.object({ id: nullableStr, name: nullableStr, icon: nullableStr, server: nullableStr.optional() }),
);

export const Post = component(
  'Post',
  z.object({
    id: str,
    type: str,
    title: optStr,
    body: optStr,
    summary: optStr,
    image: optStr,
    href: optStr,
    to: optStr,
    visibility: optStr,
    attributedTo: Author,
    published: nullableStr,
    canReply: z.boolean(),
    canReact: z.boolean(),
    replyCount: z.number().optional(),
    reactCount: z.number().optional(),
    reactSummary: z.record(z.string(), z.number()).optional(),
    myReact: nullableStr.optional(),
    /** A share (a boost, ADR 0024): the id of the post it shares; `url` is that post's address. */
    shareOf: optStr,
    url: optStr,
    attachments: z
      .array(z.object({ id: optStr, url: optStr, href: optStr, mediaType: optStr, name: optStr }))
      .optional(),
    ...sensitivity,
    /** The attached files with their descriptions (alt text). */
    media: z
      .array(
        z.object({
          id: optStr,
          url: str,
          mediaType: str,
          description: str,
          width: z.number().optional(),
          height: z.number().optional(),
        }),
      )
      .optional(),
  }),
);

export const Reply = component(
  'Reply',
  z.object({
    id: str,
    actorId: str,
    actor: z.object({ name: optStr, icon: optStr }).optional(),
    body: optStr,
    parent: optStr,
    target: optStr,
    createdAt: optStr,
    replyCount: z.number().optional(),
    ...sensitivity,
  }),
);

export const React = component(
  'React',
  z.object({ id: str, emoji: str, actorId: str, actor: z.object({ name: optStr }).optional() }),
);

export const Member = component('Member', z.object({ id: str, name: optStr, icon: optStr }));

export const Circle = component(
  'Circle',
  z.object({
    id: str,
    name: str,
    summary: optStr,
    to: optStr,
    type: optStr,
    actorId: optStr,
    memberCount: z.number().optional(),
    members: z.array(Member).optional(),
    lastSeenAt: nullableStr.optional(),
    isOwner: z.boolean().optional(),
    isMember: z.boolean().optional(),
  }),
);

export const Group = component(
  'Group',
  z.object({
    id: str,
    name: str,
    description: optStr,
    rsvpPolicy: optStr,
    memberCount: z.number().optional(),
    to: optStr,
    actorId: optStr,
    circles: z.record(z.string(), z.string()).optional(),
    role: nullableStr.optional(),
    status: optStr,
    isMember: z.boolean().optional(),
    isAdmin: z.boolean().optional(),
    isPending: z.boolean().optional(),
  }),
);

export const Page = component(
  'Page',
  z.object({
    id: str,
    title: str,
    slug: optStr,
    body: optStr,
    summary: optStr,
    type: optStr,
    to: optStr,
    order: z.number().optional(),
    deletedAt: nullableStr.optional(),
    ...sensitivity,
  }),
);

export const Bookmark = component(
  'Bookmark',
  z.object({
    id: str,
    type: z.enum(['Bookmark', 'Folder']),
    title: optStr,
    href: optStr,
    target: optStr,
    parentFolder: nullableStr.optional(),
    summary: optStr,
    actorId: optStr,
    to: optStr,
    tags: z.array(str).optional(),
    createdAt: optStr,
  }),
);

export const UserDetail = component(
  'UserDetail',
  z.object({
    id: str,
    username: optStr,
    profile: Profile.optional(),
    postCount: z.number().optional(),
    followerCount: z.number().optional(),
    followingCount: z.number().optional(),
    isFollowing: z.boolean().optional(),
    isBlocked: z.boolean().optional(),
    isMuted: z.boolean().optional(),
    type: optStr,
  }),
);

export const Notification = component(
  'Notification',
  z.object({ id: str, type: str, summary: str, href: str, read: z.boolean(), createdAt: str }),
);
