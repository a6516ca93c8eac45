/**
 * The objects an interaction acts on: which kinds exist, where they are stored, and whether the
 * actor may see them and use their reply/react capability (decisions.md §4: Reply and React
 * check existence, visibility and `canReply` / `canReact`).
 */
import { capabilityAllows, type Viewer } from '@agora/common/audience';
import { parseId, type ReactState } from '@agora/common/db';
import { BadRequest, NotAuthorized, NotFound } from '@agora/common/errors';
import type { SocialContext } from '../../../context';
import { readableObject } from '../../../access/objects';
import { checkCircleAccess, loadCircle } from '../../../access/circles';

export const KIND_MODELS = {
  post: 'Post',
  reply: 'Reply',
  react: 'React',
  circle: 'Circle',
  page: 'Page',
  bookmark: 'Bookmark',
  group: 'Group',
} as const;
export type StoredKind = keyof typeof KIND_MODELS;

export type Lean = Record<string, unknown> & {
  id: string;
  actorId?: string | null;
  to?: string | null;
  type?: string | null;
  canReply?: string | null;
  canReact?: string | null;
  deletedAt?: Date | null;
};

/**
 * The store of a kind, as the generic handlers use it (whatever the collection): what every
 * object store over the port offers (ObjectCollection).
 */
export interface LooseStore {
  byId(id: string): Promise<Lean | null>;
  liveById(id: string): Promise<Lean | null>;
  set(id: string, fields: Record<string, unknown>): Promise<Lean | null>;
  softDelete(id: string, fields: Record<string, unknown> & { deletedAt: Date }): Promise<Lean | null>;
  bump(id: string, field: string, by: number): Promise<void>;
  reactDelta(id: string, delta: Record<string, number>): Promise<ReactState>;
  childrenIn(parentField: 'parentFolder' | 'parentId', parents: string[], ownerId?: string): Promise<Lean[]>;
}

export function storeOf(ctx: SocialContext, kind: StoredKind): LooseStore {
  const r = ctx.stores;
  const stores: Record<StoredKind, unknown> = {
    post: r.posts,
    reply: r.replies,
    react: r.reacts,
    circle: r.circles,
    page: r.pages,
    bookmark: r.bookmarks,
    group: r.groups,
  };
  return stores[kind] as LooseStore;
}

export type TargetKind = StoredKind | 'user';

/** Kinds of which this server holds copies under their origin's ids (federated threads). */
const COPIED_KINDS = new Set(['post', 'reply']);

/** Whether a remote id may be acted on here: replies and reactions reach copies (docs/federation.md). */
export interface KindOptions {
  copies?: boolean;
}

/**
 * The kind of a local id; a remote or unknown id is 404 (nothing of it is stored here). With
 * `copies`, the id of another server's post or reply is accepted too: its copy is read by id.
 */
export function localKind(ctx: SocialContext, id: string, opts: KindOptions = {}): TargetKind {
  const p = parseId(id);
  const copy = opts.copies === true && p.type === 'Object' && COPIED_KINDS.has(p.kind ?? '');
  if (p.domain !== ctx.config.DOMAIN.toLowerCase() && !copy) throw new NotFound('Not found');
  if (p.type === 'User') return 'user';
  if (p.type === 'Object' && p.kind && Object.hasOwn(KIND_MODELS, p.kind)) return p.kind as StoredKind;
  throw new NotFound('Not found');
}

/** The target kind, restricted to the kinds an activity accepts (400 naming the field otherwise). */
export function kindAmong<K extends TargetKind>(
  ctx: SocialContext,
  id: string,
  allowed: readonly K[],
  field: string,
  opts: KindOptions = {},
): K {
  const p = parseId(id);
  const kind = p.type === 'User' ? 'user' : p.type === 'Object' ? p.kind : undefined;
  if (!kind || !(allowed as readonly string[]).includes(kind))
    throw new BadRequest(`${field}: must be the id of a ${allowed.join(', ')}`);
  return localKind(ctx, id, opts) as K;
}

export interface Found {
  kind: StoredKind;
  doc: Lean;
}

/** The object if the viewer may read it: 404 missing, 403 denied (circles by their access tiers). */
export async function visibleTarget(
  ctx: SocialContext,
  viewer: Viewer,
  id: string,
  opts: KindOptions = {},
): Promise<Found> {
  const kind = localKind(ctx, id, opts);
  if (kind === 'user' || kind === 'react') throw new NotFound('Not found');
  if (kind === 'circle') {
    const circle = await loadCircle(ctx, id);
    await checkCircleAccess(ctx, circle, viewer);
    return { kind, doc: circle as unknown as Lean };
  }
  return readableObject(ctx, viewer, id);
}

/** The thread a reply belongs to: the root object and the first-level parent (depth ≤ 2). */
export async function threadOf(ctx: SocialContext, found: Found): Promise<{ root: Found; parentId: string }> {
  if (found.kind !== 'reply') return { root: found, parentId: found.doc.id };
  const rootId = String(found.doc.target);
  // The root is whatever this server stored the reply under: its own object or a copy.
  const rootKind = localKind(ctx, rootId, { copies: true });
  if (rootKind === 'user' || rootKind === 'reply' || rootKind === 'react') throw new NotFound('Not found');
  const root = await storeOf(ctx, rootKind).liveById(rootId);
  if (!root) throw new NotFound('Not found');
  // A reply to a second-level reply joins its first-level ancestor.
  const parentId = found.doc.parent === found.doc.target ? found.doc.id : String(found.doc.parent);
  return { root: { kind: rootKind, doc: root }, parentId };
}

/**
 * Whether the viewer may reply to / react on an object they can see. A circle's capability that
 * just repeats its audience admits everyone who passed the circle's access check (members).
 */
export function assertCapability(
  ctx: SocialContext,
  viewer: Viewer,
  target: Found,
  which: 'canReply' | 'canReact',
): void {
  const doc = target.doc;
  const cap = doc[which] || doc.to || '';
  if (target.kind === 'circle' && cap === (doc.to ?? '')) return;
  if (
    !capabilityAllows(cap, { to: doc.to ?? null, actorId: doc.actorId ?? null }, viewer, ctx.config.DOMAIN)
  ) {
    throw new NotAuthorized(which === 'canReply' ? 'You cannot reply to this' : 'You cannot react to this');
  }
}
