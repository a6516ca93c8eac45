/** Turns a member reference from a client into the member stored in a circle. */
import { parseId, type Member } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import type { SocialContext } from '../context';

export async function resolveMember(ctx: SocialContext, ref: unknown): Promise<Member> {
  const id =
    typeof ref === 'string'
      ? ref
      : typeof ref === 'object' && ref !== null
        ? (ref as { id?: unknown }).id
        : undefined;
  if (typeof id !== 'string' || !id || id.length > 300)
    throw new BadRequest('object: a member id is required');
  const parsed = parseId(id);
  const domain = ctx.config.DOMAIN;
  if (parsed.type === 'User') {
    if (parsed.domain === domain) {
      const u = await ctx.stores.users.findActiveById(id);
      if (!u) throw new NotFound(`User not found: ${id}`);
      return {
        id: u.id,
        type: 'Person',
        name: u.profile?.name ?? u.username,
        icon: u.profile?.icon ?? '',
        url: u.url ?? '',
        inbox: u.inbox ?? '',
        outbox: u.outbox ?? '',
        server: `@${domain}`,
      };
    }
    return { id, type: 'Person', name: parsed.username ?? id, server: `@${parsed.domain}` };
  }
  if (parsed.type === 'Server') return { id, type: 'Service', name: parsed.domain ?? id, server: id };
  if (parsed.type === 'Object' && parsed.kind === 'group') return { id, type: 'Group' };
  throw new BadRequest(`object: ${id} is not a user, server or group id`);
}
