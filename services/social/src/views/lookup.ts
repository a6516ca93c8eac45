/**
 * Object lookup of spec 1.8: one function with a viewer and a mode. `local` reads this server's
 * database; `remote` asks the object's origin server (remote-lookup.ts; for this server's own
 * ids the origin is the database); `prefer-local` and `both` read locally first and ask the
 * origin when nothing local answers (remote objects are not cached, so the two behave alike).
 * The result is sanitised for the viewer; an empty lookup is 404 `{ error: 'Not found' }`;
 * errors map by name (BadRequest 400, NotAuthorized 403, NotFound 404, UpstreamError 502,
 * anything else 500) through the one error middleware.
 */
import type { Viewer } from '@agora/common/audience';
import { parseId } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import type { SocialContext } from '../context';
import { readableObject } from '../access/objects';
import { suspendedOf } from '../access/suspended';
import { fetchRemote } from './remote-lookup';
import { followStateOf } from './remote-ap';
import { refuseBlocked } from '../federation/blocks';
import { presentUser } from '../users/present';

export type LookupMode = 'local' | 'remote' | 'prefer-local' | 'both';
const MODES: LookupMode[] = ['local', 'remote', 'prefer-local', 'both'];

export function parseMode(raw: unknown): LookupMode {
  if (raw === undefined) return 'local';
  if (typeof raw === 'string' && (MODES as string[]).includes(raw)) return raw as LookupMode;
  throw new BadRequest('mode must be one of local, remote, prefer-local, both');
}

export async function lookup(
  ctx: SocialContext,
  viewer: Viewer,
  id: string,
  mode: LookupMode = 'local',
): Promise<Record<string, unknown> | null> {
  const parsed = parseId(id);
  if (parsed.domain === ctx.config.DOMAIN) return lookupLocal(ctx, viewer, id, parsed.type);
  await refuseBlocked(ctx, parsed.domain);
  // Another server's actor that its server suspended has no profile here meanwhile (ADR 0028),
  // as a suspended local account has none: not even one asked of its origin.
  if (parsed.type === 'User' && (await suspendedOf(ctx).anyOf(id))) return null;
  let item: Record<string, unknown> | null;
  if (mode === 'remote') item = shownTo(viewer, parsed.type, await fetchRemote(ctx, id));
  else {
    // Remote objects this server holds (posts that arrived through the inbox) answer locally.
    const held = await lookupLocal(ctx, viewer, id, parsed.type);
    item = held ?? (mode === 'local' ? null : shownTo(viewer, parsed.type, await fetchRemote(ctx, id)));
  }
  // A remote ActivityPub actor the viewer follows: whether it accepted (`pending` until it answers).
  const followState = item && viewer.local ? await followStateOf(ctx, viewer.id, id) : undefined;
  return item && followState ? { ...item, followState } : item;
}

/**
 * The origin answers what this server may read (it signs the request), which is what every one of
 * its users may read: a public object, or one addressed to a circle holding this server. Only
 * public objects are shown to anyone else (anonymous callers, other servers).
 */
function shownTo(
  viewer: Viewer,
  type: ReturnType<typeof parseId>['type'],
  item: Record<string, unknown> | null,
): Record<string, unknown> | null {
  // A profile is shown to everyone (the origin already left out what this server may not read).
  if (!item || type === 'User' || (viewer.id && viewer.local)) return item;
  return item.to === '@public' ? item : null;
}

async function lookupLocal(
  ctx: SocialContext,
  viewer: Viewer,
  id: string,
  type: ReturnType<typeof parseId>['type'],
): Promise<Record<string, unknown> | null> {
  if (type === 'User') {
    const user = await ctx.stores.users.findById(id);
    if (!user || user.deletedAt || user.active === false) return null;
    return presentUser(user, viewer, ctx.config.DOMAIN);
  }
  if (type !== 'Object') return null;
  try {
    const { doc } = await readableObject(ctx, viewer, id);
    const { _id, __v, ...rest } = doc;
    void _id;
    void __v;
    return rest;
  } catch (err) {
    if (err instanceof NotFound) return null;
    throw err;
  }
}

/**
 * GET /posts/:id with a mode (spec 1.8): another server's post asked of its origin, for `remote`
 * always, for `prefer-local` and `both` when this server holds no copy the viewer may read. Null
 * when the local read answers (a local id, or a copy held here); `remote` with nothing from the
 * origin is 404.
 */
export async function remotePost(
  ctx: SocialContext,
  viewer: Viewer,
  id: string,
  mode: LookupMode,
): Promise<Record<string, unknown> | null> {
  const parsed = parseId(id);
  if (mode === 'local' || parsed.kind !== 'post' || parsed.domain === ctx.config.DOMAIN) return null;
  if (mode !== 'remote' && (await lookupLocal(ctx, viewer, id, parsed.type))) return null;
  await refuseBlocked(ctx, parsed.domain);
  const item = shownTo(viewer, parsed.type, await fetchRemote(ctx, id));
  if (!item && mode === 'remote') throw new NotFound('Post not found');
  return item;
}
