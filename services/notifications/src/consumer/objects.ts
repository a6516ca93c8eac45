/**
 * The objects notifications point at: their kind, owner and audience, the thread root a reply
 * belongs to, and the absolute URL a client opens (behaviour-notes §6.1 steps 4-5, with a real
 * scheme: the reference's hrefs began `undefined://`).
 */
import { parseId } from '@agora/common/db';
import type { NotificationsContext } from '../context';

export type ObjectKind = 'post' | 'reply' | 'page' | 'bookmark' | 'group' | 'circle';
const KINDS: readonly ObjectKind[] = ['post', 'reply', 'page', 'bookmark', 'group', 'circle'];

/** What a notification needs of an object: who owns it and who may read it. */
export interface ObjectInfo {
  id: string;
  kind: ObjectKind;
  actorId: string | null;
  /** The audience that governs reading it (a reply's is its thread root's) and that root's owner. */
  to: string | null;
  rootActorId: string | null;
  /** The object a client opens: the thread root for a reply, else the object itself. */
  rootId: string;
  rootKind: Exclude<ObjectKind, 'reply'>;
  /** Markdown source, for mention scanning. */
  content: string;
  /** A post's fan-out circles: the circles its author was in when it was written. */
  circles: string[];
  name: string | null;
}

export function kindOf(id: string): ObjectKind | null {
  const parsed = parseId(id);
  return parsed.type === 'Object' && (KINDS as readonly string[]).includes(parsed.kind ?? '')
    ? (parsed.kind as ObjectKind)
    : null;
}

/** `Post`, `Reply`, ... as the other services spell objectType. */
export function objectTypeOf(kind: ObjectKind): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** The English noun for "your <noun>" in summaries. */
export function nounOf(kind: ObjectKind): string {
  return kind;
}

/** The absolute URL of an object's page; replies share the posts URL space (§2.1). */
export function hrefOf(publicUrl: string, kind: ObjectKind, id: string): string {
  const section = kind === 'reply' ? 'posts' : `${kind}s`;
  return `${publicUrl}/${section}/${id}`;
}

/** A user's profile URL, spelt as registration stores `url`. */
export function userHref(publicUrl: string, id: string): string {
  return `${publicUrl}/users/${encodeURIComponent(id)}`;
}

interface Row {
  id: string;
  actorId?: string | null;
  to?: string | null;
  target?: string | null;
  name?: string | null;
  title?: string | null;
  source?: { content?: string | null } | null;
  /** A post's fan-out circles (a group's own circles are an object of roles). */
  circles?: unknown;
  deletedAt?: Date | null;
}

async function findRow(ctx: NotificationsContext, kind: ObjectKind, id: string): Promise<Row | null> {
  const stores = {
    post: ctx.stores.posts,
    reply: ctx.stores.replies,
    page: ctx.stores.pages,
    bookmark: ctx.stores.bookmarks,
    group: ctx.stores.groups,
    circle: ctx.stores.circles,
  } as const;
  return stores[kind].liveById(id);
}

/** A live local object by id, with its thread root resolved; null when missing or deleted. */
export async function loadObject(ctx: NotificationsContext, id: string): Promise<ObjectInfo | null> {
  const kind = kindOf(id);
  if (!kind) return null;
  const row = await findRow(ctx, kind, id);
  if (!row) return null;
  let root: { id: string; kind: Exclude<ObjectKind, 'reply'>; row: Row } | null = null;
  if (kind === 'reply') {
    // A reply's `target` is always its thread root (threads are at most two levels deep).
    const rootId = typeof row.target === 'string' ? row.target : '';
    const rootKind = kindOf(rootId);
    if (!rootKind || rootKind === 'reply') return null;
    const rootRow = await findRow(ctx, rootKind, rootId);
    if (!rootRow) return null;
    root = { id: rootId, kind: rootKind, row: rootRow };
  } else {
    root = { id, kind, row };
  }
  return {
    id,
    kind,
    actorId: row.actorId ?? null,
    to: root.row.to ?? null,
    rootActorId: root.row.actorId ?? null,
    rootId: root.id,
    rootKind: root.kind,
    content: row.source?.content ?? '',
    circles: kind === 'post' && Array.isArray(row.circles) ? (row.circles as string[]) : [],
    name: row.name ?? row.title ?? null,
  };
}
