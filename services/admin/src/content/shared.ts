/**
 * What the content groups share: the server actor, its audiences and the owner rules. The
 * documents themselves are built by `@agora/common/content`, as the social service builds them.
 */
import { z } from 'zod';
import type { AdminContext } from '../context';
import { BadRequest, NotAuthorized } from '@agora/common/errors';
import { canonicalTo } from '@agora/common/audience';
import type { Addressing } from '@agora/common/content';
import { parseInput as parse } from '@agora/common/validation';
import type { Row } from './crud';

/** The server actor (`@<domain>`): the owner of server content (decisions.md §2). */
export async function serverActor(ctx: AdminContext) {
  const domain = ctx.config.DOMAIN;
  const profile = await ctx.stores.settings.get<{ name?: string; icon?: string }>('profile');
  return {
    id: `@${domain}`,
    type: 'Service',
    name: profile?.name ?? domain,
    icon: profile?.icon ?? '',
    url: ctx.config.publicUrl,
    server: `@${domain}`,
  };
}

export function isServerOwned(ctx: AdminContext, row: Row): boolean {
  return row.actorId === `@${ctx.config.DOMAIN}`;
}

export function assertServerOwned(ctx: AdminContext, row: Row, what: string): void {
  if (!isServerOwned(ctx, row)) throw new NotAuthorized(`Only server-owned ${what} can be changed here`);
}

/**
 * A restore undoes a deletion made by moderation. What an author deleted themselves stays
 * deleted: bringing it back would publish something its author withdrew.
 */
export function assertNotAuthorDeleted(row: Row, what: string): void {
  if (row.deletedBy && row.deletedBy === row.actorId)
    throw new NotAuthorized(`This ${what} was deleted by its author and cannot be restored here`);
}

/**
 * Server content is addressed to the public or to the server's users: the server actor has no
 * circles or groups to address.
 */
export function serverAudience(
  ctx: AdminContext,
  value: unknown,
  field: string,
  fallback = '@public',
): string {
  const to = canonicalTo(value, field, ctx.config.DOMAIN, fallback);
  if (to !== '@public' && to !== `@${ctx.config.DOMAIN}`)
    throw new BadRequest(`${field} must be @public or @${ctx.config.DOMAIN} for server content`);
  return to;
}

export const optionalText = (max: number) => z.string().max(max).optional();

export { parse };

/** `canReply` / `canReact` of server content: an audience it may have, or `none`. */
export function serverCapability(ctx: AdminContext, value: unknown, field: string, to: string): string {
  const cap = canonicalTo(value, field, ctx.config.DOMAIN, to);
  if (cap !== 'none' && cap !== '@public' && cap !== `@${ctx.config.DOMAIN}`)
    throw new BadRequest(`${field} must be @public, @${ctx.config.DOMAIN} or none for server content`);
  return cap;
}

/**
 * The audience fields of an update of server content: `to` when given, and `canReply` /
 * `canReact` checked against the audience the object will have. Fields not given are left out.
 */
export function serverAudiencePatch(
  ctx: AdminContext,
  body: Record<string, unknown>,
  currentTo: string,
): { set: Partial<Addressing>; to: string } {
  const set: Partial<Addressing> = {};
  if (body.to !== undefined) set.to = serverAudience(ctx, body.to, 'to');
  const to = set.to ?? currentTo;
  if (body.canReply !== undefined) set.canReply = serverCapability(ctx, body.canReply, 'canReply', to);
  if (body.canReact !== undefined) set.canReact = serverCapability(ctx, body.canReact, 'canReact', to);
  return { set, to };
}

/** An update must name at least one field the group can change (400 otherwise). */
export function requirePatchable(body: Record<string, unknown>, patchable: readonly string[]): void {
  if (!Object.keys(body).some((k) => patchable.includes(k)))
    throw new BadRequest(`body: give at least one of ${patchable.join(', ')}`);
}
