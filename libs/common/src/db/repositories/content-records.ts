/**
 * The stored shapes of content (posts, replies, reactions, groups, pages, bookmarks) and what a
 * new one holds unless given: what their mongoose schemas said before the stores moved onto the
 * engine port (ADR 0013). Markdown `source` is rendered to sanitised HTML `body` by the writer
 * (the content module), never here.
 */

/** The denormalised author copy stored on content (refreshed on `user.updated`). */
export type ActorRef = {
  id?: string | null;
  type?: string | null;
  name?: string | null;
  icon?: string | null;
  url?: string | null;
  server?: string | null;
};

/** A markdown source; the rendered, sanitised HTML lives beside it in `body`. */
export type Source = {
  content: string;
  mediaType: string;
};

type Reactable = {
  replyCount: number;
  reactCount: number;
  reactSummary: Record<string, number>;
};

/** A content warning and whether the media are sensitive (ADR 0021; older documents lack them). */
type Sensitivity = {
  contentWarning?: string | null;
  sensitive?: boolean | null;
};

/** An attached file as a post shows it (ADR 0021; `id` for local files). */
export type MediaDoc = {
  id?: string;
  url: string;
  mediaType: string;
  description: string;
  width?: number;
  height?: number;
};

type Deletable = {
  deletedAt?: Date | null;
  deletedBy?: string | null;
};

export type PostDoc = Reactable &
  Deletable &
  Sensitivity & {
    id: string;
    objectType: string;
    /** Note | Article | Media | Link | Event | Tombstone */
    type: string;
    actorId: string;
    actor?: ActorRef | null;
    server?: string | null;
    originDomain?: string | null;
    url?: string | null;
    title?: string | null;
    summary?: string | null;
    source?: Source | null;
    body?: string | null;
    href?: string | null;
    image?: string | null;
    attachments: string[];
    media?: MediaDoc[] | null;
    tags: string[];
    location?: unknown;
    event?: { startDate?: Date | null; endDate?: Date | null } | null;
    to: string;
    canReply: string;
    canReact: string;
    group?: string | null;
    /** The circles whose timelines hold this post (written by fan-out and backfill). */
    circles: string[];
    publishedAt: Date;
    /** The type a deleted post had before it became a Tombstone, so a restore brings it back. */
    formerType?: string | null;
    /** A local user's share (a boost, ADR 0024): the id of the post it shares. */
    shareOf?: string | null;
  };

export type ReplyDoc = Reactable &
  Deletable &
  Sensitivity & {
    id: string;
    objectType: string;
    type: string;
    actorId: string;
    actor?: ActorRef | null;
    server?: string | null;
    url?: string | null;
    /** The thread's root (post, page, …). */
    target: string;
    /** The first-level reply, or the root. */
    parent: string;
    source?: Source | null;
    body?: string | null;
    /** A remote reply's last edit applied, as its author's server dated it (`updated`, ISO). */
    remoteUpdated?: string | null;
  };

export type ReactDoc = {
  id: string;
  objectType: string;
  actorId: string;
  actor?: ActorRef | null;
  target: string;
  emoji: string;
  name?: string | null;
  server?: string | null;
};

export const RSVP_POLICIES = ['open', 'serverOpen', 'serverApproval', 'approvalOnly', 'inviteOnly'] as const;

export type GroupDoc = Reactable &
  Deletable & {
    id: string;
    objectType: string;
    type: string;
    name: string;
    description?: string | null;
    icon?: string | null;
    image?: string | null;
    location?: unknown;
    actorId: string;
    actor?: ActorRef | null;
    server?: string | null;
    url?: string | null;
    inbox?: string | null;
    outbox?: string | null;
    originDomain?: string | null;
    to: string;
    canReply: string;
    canReact: string;
    rsvpPolicy: (typeof RSVP_POLICIES)[number];
    /** The group's circles: admins, moderators, members, pending (join requests), blocked. */
    circles?: {
      admins?: string | null;
      moderators?: string | null;
      members?: string | null;
      pending?: string | null;
      blocked?: string | null;
    } | null;
    memberCount: number;
  };

export type PageDoc = Reactable &
  Deletable &
  Sensitivity & {
    id: string;
    objectType: string;
    type: 'Page' | 'Folder' | 'Tombstone';
    parentId?: string | null;
    order: number;
    url?: string | null;
    actorId: string;
    actor?: ActorRef | null;
    server?: string | null;
    originDomain?: string | null;
    title: string;
    slug: string;
    summary?: string | null;
    source?: Source | null;
    body?: string | null;
    image?: string | null;
    tags: string[];
    to: string;
    canReply: string;
    canReact: string;
    lastFetchedAt?: Date | null;
    /** The type before deletion (Page or Folder), so a restore brings it back. */
    formerType?: string | null;
  };

export type BookmarkDoc = Reactable &
  Deletable & {
    id: string;
    objectType: string;
    type: 'Bookmark' | 'Folder' | 'Tombstone';
    actorId: string;
    actor?: ActorRef | null;
    server?: string | null;
    url?: string | null;
    parentFolder?: string | null;
    href?: string | null;
    target?: string | null;
    title?: string | null;
    summary?: string | null;
    source?: Source | null;
    body?: string | null;
    image?: string | null;
    tags: string[];
    to: string;
    canReply: string;
    canReact: string;
  };

/** Timestamps every content record carries. */
export type Stamped = {
  createdAt?: Date;
  updatedAt?: Date;
};

const reactable = () => ({ replyCount: 0, reactCount: 0, reactSummary: {} });

/** What a new object of each kind holds unless given (the defaults of the former schemas). */
export const DEFAULTS = {
  post: () => ({
    objectType: 'Post',
    type: 'Note',
    originDomain: null,
    attachments: [],
    tags: [],
    group: null,
    circles: [],
    ...reactable(),
    publishedAt: new Date(),
    deletedAt: null,
  }),
  reply: () => ({ objectType: 'Reply', type: 'Reply', ...reactable(), deletedAt: null }),
  react: () => ({ objectType: 'React' }),
  group: () => ({
    objectType: 'Group',
    type: 'Group',
    originDomain: null,
    rsvpPolicy: 'open',
    memberCount: 0,
    ...reactable(),
    deletedAt: null,
  }),
  page: () => ({
    objectType: 'Page',
    type: 'Page',
    parentId: null,
    order: 0,
    originDomain: null,
    tags: [],
    canReply: '',
    canReact: '',
    ...reactable(),
    deletedAt: null,
  }),
  bookmark: () => ({
    objectType: 'Bookmark',
    type: 'Bookmark',
    parentFolder: null,
    tags: [],
    canReply: '',
    canReact: '',
    ...reactable(),
    deletedAt: null,
  }),
};

/** A markdown source with its defaults filled in (`{ content: '', mediaType: 'text/markdown' }`). */
export function withSource<D extends Record<string, unknown>>(doc: D): D {
  if (!doc.source || typeof doc.source !== 'object') return doc;
  return { ...doc, source: { content: '', mediaType: 'text/markdown', ...doc.source } };
}
