/**
 * The members of another server's group, as its server lists them (docs/federation.md, "Groups"):
 * the cached group here holds only this server's members, so `GET /groups/:id/members` of a
 * cached group asks the group's server for the page (a GET signed by this server, so it answers
 * what this server may see) and keeps only the fields a member entry has. Null when the origin
 * does not show it (404, 401, 403), is unreachable or answers something else: the caller then
 * lists what this server knows.
 */
import { parseId } from '@agora/common/db';
import { originOf, signAsServer } from '@agora/common/federation';
import type { Paging } from '@agora/common/http';
import type { SocialContext } from '../context';

export interface RemoteMember {
  id: string;
  type: 'Person' | 'Service';
  name?: string;
  addedAt?: string;
}

function memberOf(item: unknown): RemoteMember | null {
  if (typeof item !== 'object' || item === null) return null;
  const { id, name, addedAt } = item as Record<string, unknown>;
  if (typeof id !== 'string' || !parseId(id).domain) return null;
  const kind = parseId(id).type === 'User' ? 'Person' : 'Service';
  if (kind === 'Service' && id.lastIndexOf('@') !== 0) return null;
  return {
    id,
    type: kind,
    ...(typeof name === 'string' ? { name: name.slice(0, 200) } : {}),
    ...(typeof addedAt === 'string' && !Number.isNaN(Date.parse(addedAt)) ? { addedAt } : {}),
  };
}

export async function fetchRemoteMembers(
  ctx: SocialContext,
  groupId: string,
  paging: Paging,
): Promise<{ total: number; items: RemoteMember[] } | null> {
  const domain = parseId(groupId).domain;
  if (!domain) return null;
  const url =
    `${originOf(ctx.config, domain)}/groups/${encodeURIComponent(groupId)}/members` +
    `?page=${paging.page}&limit=${paging.limit}`;
  try {
    const signed = await signAsServer(ctx, { method: 'GET', url });
    const res = await ctx.federation.fetch(url, { headers: { ...signed, accept: 'application/json' } });
    if (res.status !== 200) return null;
    const body = JSON.parse(res.body.toString('utf8')) as { totalItems?: unknown; orderedItems?: unknown };
    if (!Array.isArray(body.orderedItems) || typeof body.totalItems !== 'number') return null;
    const items = body.orderedItems.slice(0, paging.limit).map(memberOf);
    if (items.some((m) => m === null)) return null;
    return { total: Math.max(0, Math.floor(body.totalItems)), items: items as RemoteMember[] };
  } catch (err) {
    ctx.logger.warn({ err: (err as Error).message, groupId }, 'remote group members not fetched');
    return null;
  }
}
