/**
 * An admin's domain block (docs/federation.md, "Blocking a domain"). Recorded on the server's row
 * and announced through the blocked-domains stamp, so every process of every service refuses the
 * domain from its next exchange on (inbox 403, deliveries dropped, pulls and signed reads both
 * ways refused, lookups and pages refused); the copies of its posts are hidden at once and come
 * back when the block is lifted. Recorded in the audit log (Block or Unblock of the server actor
 * `@<domain>`) like every admin write.
 */
import { STAMPS } from '@agora/common/cache';
import type { AdminContext } from '../context';
import { recordAdminWrite } from '../record';

/** Returns whether anything changed (blocking a blocked domain again does nothing). */
export async function setBlocked(
  ctx: AdminContext,
  adminId: string,
  domain: string,
  blocked: boolean,
  reason?: string,
): Promise<boolean> {
  const before = await ctx.stores.remoteServers.byDomain(domain);
  if ((before?.blocked === true) === blocked && (!blocked || reason === undefined)) return false;
  await ctx.stores.remoteServers.setBlocked(domain, blocked, adminId, reason);
  await ctx.stamps.bump([STAMPS.blockedDomains]);
  const content = ctx.stores.domainContent;
  const posts = blocked ? await content.hide(domain) : await content.restore(domain);
  await recordAdminWrite(
    ctx,
    adminId,
    {
      type: blocked ? 'Block' : 'Unblock',
      objectType: 'Server',
      objectId: `@${domain}`,
      object: { domain, ...(reason ? { reason } : {}), [blocked ? 'hiddenPosts' : 'restoredPosts']: posts },
    },
    [],
  );
  ctx.logger.info({ domain, blocked, posts, by: adminId }, blocked ? 'domain blocked' : 'domain unblocked');
  return true;
}
