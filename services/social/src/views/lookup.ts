/**
 * Object lookup of spec 1.8: one function with a viewer and a mode. `local` reads this server's
 * database; the remote modes (`remote`, `prefer-local`, `both`) arrive with federation behind
 * the same function and answer 400 until then. The result is sanitised for the viewer; an empty
 * lookup is 404 `{ error: 'Not found' }`; errors map by name (BadRequest 400, NotAuthorized 403,
 * NotFound 404, anything else 500) through the one error middleware.
 */
import { BadRequest, NotFound, parseId, type Runtime, type Viewer } from '@agora/common';
import { readableObject } from './objects';
import { presentUser } from './users';

export type LookupMode = 'local' | 'remote' | 'prefer-local' | 'both';
const MODES: LookupMode[] = ['local', 'remote', 'prefer-local', 'both'];

export function parseMode(raw: unknown): LookupMode {
  if (raw === undefined) return 'local';
  if (typeof raw === 'string' && (MODES as string[]).includes(raw)) return raw as LookupMode;
  throw new BadRequest('mode must be one of local, remote, prefer-local, both');
}

export async function lookup(
  rt: Runtime,
  viewer: Viewer,
  id: string,
  mode: LookupMode = 'local',
): Promise<Record<string, unknown> | null> {
  const parsed = parseId(id);
  const local = parsed.domain === rt.config.DOMAIN;
  if (mode !== 'local' && !local) throw new BadRequest(`Remote lookups are not available yet (mode ${mode})`);
  if (!local) return null;
  if (parsed.type === 'User') {
    const user = await rt.repos.users.findById(id);
    if (!user || user.deletedAt || user.active === false) return null;
    return presentUser(user, viewer, rt.config.DOMAIN);
  }
  if (parsed.type !== 'Object') return null;
  try {
    const { doc } = await readableObject(rt, viewer, id);
    const { _id, __v, ...rest } = doc;
    void _id;
    void __v;
    return rest;
  } catch (err) {
    if (err instanceof NotFound) return null;
    throw err;
  }
}
