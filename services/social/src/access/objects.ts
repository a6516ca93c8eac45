/** Loading any addressable object (post, reply, page, …) with the viewer's access checked. */
import { canSee, type Viewer } from '@agora/common/audience';
import { parseId } from '@agora/common/db';
import { NotFound } from '@agora/common/errors';
import type { SocialContext } from '../context';
import { canSeeBookmark, type BookmarkRecord } from './bookmarks';
import { suspendedOf } from './suspended';

type Lean = Record<string, unknown> & {
  id: string;
  to?: string | null;
  actorId?: string | null;
  deletedAt?: Date | null;
};

const KINDS = ['post', 'page', 'bookmark', 'group', 'circle', 'reply'] as const;
type Kind = (typeof KINDS)[number];

function storeFor(ctx: SocialContext, kind: Kind): { liveById(id: string): Promise<unknown> } {
  const r = ctx.stores;
  switch (kind) {
    case 'post':
      return r.posts;
    case 'page':
      return r.pages;
    case 'bookmark':
      return r.bookmarks;
    case 'group':
      return r.groups;
    case 'circle':
      return r.circles;
    case 'reply':
      return r.replies;
  }
}

/** Finds a local object by id; null when missing or deleted. */
export async function findObject(ctx: SocialContext, id: string): Promise<{ kind: Kind; doc: Lean } | null> {
  if (typeof id !== 'string') return null;
  const p = parseId(id);
  const kind = p.type === 'Object' ? (p.kind as Kind) : undefined;
  if (!kind || !(KINDS as readonly string[]).includes(kind)) return null; // `constructor:x@d` is no kind
  const doc = (await storeFor(ctx, kind).liveById(id)) as Lean | null;
  return doc ? { kind, doc } : null;
}

/**
 * The audience of an object: a reply is read with its thread root's audience.
 */
export async function effectiveAudience(
  ctx: SocialContext,
  found: { kind: string; doc: Lean },
): Promise<{ to: string | null; actorId: string | null; deletedAt: Date | null } | null> {
  if (found.kind !== 'reply')
    return {
      to: found.doc.to ?? null,
      actorId: found.doc.actorId ?? null,
      deletedAt: found.doc.deletedAt ?? null,
    };
  const root = await findObject(ctx, String(found.doc.target));
  if (!root || root.kind === 'reply') return null;
  return { to: root.doc.to ?? null, actorId: root.doc.actorId ?? null, deletedAt: null };
}

/**
 * Whether the viewer may read what is addressed to `audience`. A post addressed to a group is
 * also read by the group's own audience, as its posts list is (ADR 0023): a public group's posts
 * by anyone, a server group's by every local user. Writing (replies, reactions) stays with the
 * members: `canReply`/`canReact` still follow the post's own `to`.
 */
export async function canRead(
  ctx: SocialContext,
  viewer: Viewer,
  audience: { to: string | null; actorId: string | null; deletedAt: Date | null },
): Promise<boolean> {
  const domain = ctx.config.DOMAIN;
  if (canSee(audience, viewer, domain)) return true;
  if (audience.deletedAt || !audience.to?.startsWith('group:')) return false;
  const group = await ctx.stores.groups.liveById(audience.to);
  return !!group && canSee({ to: group.to ?? null, actorId: null }, viewer, domain);
}

/**
 * The object if the viewer may read it. Missing, deleted, by a suspended account and not visible to
 * this viewer (anonymous, local or another server) all answer the same 404 and body: no route may tell an object the
 * viewer cannot see from one that does not exist (docs/security.md, existence oracles).
 */
export async function readableObject(ctx: SocialContext, viewer: Viewer, id: string, notFound = 'Not found') {
  const found = await findObject(ctx, id);
  if (!found) throw new NotFound(notFound);
  const audience = await effectiveAudience(ctx, found);
  if (!audience) throw new NotFound(notFound);
  // A suspended account's objects, and replies in its threads, read as missing to everyone
  // (ADR 0028): they are kept for the restore, not shown. A group it made is its members' too.
  if (found.kind !== 'group' && (await suspendedOf(ctx).anyOf(found.doc.actorId, audience.actorId)))
    throw new NotFound(notFound);
  if (!(viewer.id && found.doc.actorId === viewer.id) && !(await canRead(ctx, viewer, audience)))
    throw new NotFound(notFound);
  // A bookmark is also hidden by any folder above it that the viewer may not see.
  if (
    found.kind === 'bookmark' &&
    !(await canSeeBookmark(ctx, viewer, found.doc as unknown as BookmarkRecord))
  )
    throw new NotFound(notFound);
  return found;
}
