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
import { fetchRemote } from './remote-lookup';
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
  if (mode === 'remote') return fetchRemote(ctx, id);
  // Remote objects this server holds (posts that arrived through the inbox) answer locally.
  const held = await lookupLocal(ctx, viewer, id, parsed.type);
  return held ?? (mode === 'local' ? null : fetchRemote(ctx, id));
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
