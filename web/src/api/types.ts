/** The wire shapes the app reads (a subset of each object: only what screens show). */

export interface Collection<T> {
  type: 'OrderedCollection' | 'OrderedCollectionPage';
  totalItems: number;
  orderedItems: T[];
  totalPages?: number;
  currentPage?: number;
}

export interface Timeline<T> extends Collection<T> {
  nextCursor?: string;
}

export interface Profile {
  name?: string;
  description?: string;
  icon?: string;
  image?: string;
}

export interface SessionUser {
  id: string;
  username: string;
  email: string | null;
  emailVerified: boolean;
  profile: Profile;
  following: string | null;
  allFollowing: string | null;
  blocked: string | null;
  muted: string | null;
  groups: string | null;
  isServerAdmin: boolean;
  isModerator: boolean;
}

export interface ServerConfig {
  domain: string;
  siteTitle: string;
  registrationIsOpen: boolean;
  requireEmailVerification?: boolean;
  rules?: Array<{ id: string; text: string }>;
  reactEmojis?: Array<{ emoji: string; name: string }>;
  flagOptions?: Array<{ code: string; label: string }>;
}

export interface Author {
  id: string | null;
  name: string | null;
  icon: string | null;
  server?: string | null;
}

export interface Post {
  id: string;
  type: string;
  title?: string;
  body?: string;
  summary?: string;
  image?: string;
  href?: string;
  to?: string;
  visibility?: string;
  attributedTo: Author;
  published: string | null;
  canReply: boolean;
  canReact: boolean;
  replyCount?: number;
  reactCount?: number;
  reactSummary?: Record<string, number>;
  myReact?: string | null;
  attachments?: Array<{ id?: string; url?: string; href?: string; mediaType?: string; name?: string }>;
}

export interface Reply {
  id: string;
  actorId: string;
  actor?: { name?: string; icon?: string };
  body?: string;
  parent?: string;
  target?: string;
  createdAt?: string;
  replyCount?: number;
}

export interface React {
  id: string;
  emoji: string;
  actorId: string;
  actor?: { name?: string };
}

export interface Member {
  id: string;
  name?: string;
  icon?: string;
}

export interface Circle {
  id: string;
  name: string;
  summary?: string;
  to?: string;
  type?: string;
  actorId?: string;
  memberCount?: number;
  members?: Member[];
  lastSeenAt?: string | null;
  isOwner?: boolean;
  isMember?: boolean;
}

export interface Group {
  id: string;
  name: string;
  description?: string;
  rsvpPolicy?: string;
  memberCount?: number;
  to?: string;
  actorId?: string;
  circles?: Record<string, string>;
  role?: string | null;
  status?: string;
  isMember?: boolean;
  isAdmin?: boolean;
  isPending?: boolean;
}

export interface Page {
  id: string;
  title: string;
  slug?: string;
  body?: string;
  summary?: string;
  type?: string;
  to?: string;
  order?: number;
  deletedAt?: string | null;
}

export interface Bookmark {
  id: string;
  type: 'Bookmark' | 'Folder';
  title?: string;
  href?: string;
  target?: string;
  parentFolder?: string | null;
  summary?: string;
  actorId?: string;
  to?: string;
  tags?: string[];
  createdAt?: string;
}

export interface UserDetail {
  id: string;
  username?: string;
  profile?: Profile;
  postCount?: number;
  followerCount?: number;
  followingCount?: number;
  isFollowing?: boolean;
  isBlocked?: boolean;
  isMuted?: boolean;
  type?: string;
}

export interface Notification {
  id: string;
  type: string;
  summary: string;
  href: string;
  read: boolean;
  createdAt: string;
}

export interface OutboxResult<T = Record<string, unknown>> {
  ok: true;
  activity: Record<string, unknown>;
  result: T & { id: string };
  createdId?: string;
}

export interface Flag {
  id: string;
  status: 'open' | 'resolved' | 'dismissed';
  targetType?: string;
  target?: string;
  actorId?: string;
  reason?: string | { label?: string; code?: string };
  notes?: string;
  createdAt?: string;
}

/** A known server as GET /admin/servers lists it. */
export interface KnownServer {
  domain: string;
  lastSeenAt: string | null;
  lastSeenVia: string | null;
  circuit: { state: 'closed' | 'open' | 'half-open'; until: string | null };
  software: { name: string; version: string } | null;
  compatible: boolean | null;
  nodeinfoError: string | null;
  blocked: boolean;
  blockedAt: string | null;
  blockReason: string | null;
  refusedInbound: number;
  heldDeliveries: number;
  deadDeliveries: number;
}

export interface AdminUser {
  id: string;
  username: string;
  email?: string | null;
  active?: boolean;
  deletedAt?: string | null;
  createdAt?: string;
  profile?: Profile;
}

export interface Setting {
  name: string;
  value: unknown;
  summary: string;
  to: string;
  canEdit: string;
  ui: { type?: string | null };
}

export interface Invite {
  id: string;
  code: string;
  type: 'individual' | 'open';
  email?: string;
  maxRedemptions?: number | null;
  redemptions?: number;
  redemptionCount?: number;
  expiresAt?: string | null;
  note?: string;
  active: boolean;
}

export interface SystemStats {
  counts: Record<string, number>;
  db: Record<string, unknown> | null;
  disk: { total?: number; free?: number; used?: number } | null;
  process: { uptime: number; node: string; memory: { rss: number; heapUsed: number } };
}

export interface BackupJob {
  id: string;
  kind?: string;
  type?: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  progress?: { stage?: string; pct?: number };
  error?: string;
  createdAt?: string;
  finishedAt?: string;
  size?: number;
}

export interface Recommendation {
  id: string;
  ref: string;
  section: string;
  note?: string;
  order?: number;
  active?: boolean;
  target?: { id: string; name?: string; title?: string; summary?: string; type?: string };
}

export interface Section {
  id: string;
  name: string;
  summary?: string;
  order?: number;
  to?: string;
  active?: boolean;
  items?: Recommendation[];
}

/**
 * A Discover card (docs/admin.md, GET /recommendations): the live target's fields by type, with
 * the curator's `note` and the recommendation's id.
 */
export interface DiscoverCard {
  id: string;
  refType: string;
  recommendation: string;
  note?: string;
  type?: string;
  title?: string;
  name?: string;
  summary?: string | null;
  slug?: string;
  /** A post's author. */
  actor?: { id: string; name?: string | null };
  /** A circle's or group's members. */
  memberCount?: number;
}

/** A Discover shelf: an active section with its live cards. */
export interface DiscoverShelf {
  id: string;
  name: string;
  slug?: string;
  summary?: string;
  items: DiscoverCard[];
}

export interface UploadedFile {
  id: string;
  url?: string;
  mediaType?: string;
  type?: string;
  width?: number;
  height?: number;
}
