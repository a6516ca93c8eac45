/**
 * Which wire a peer gets: the spec's own protocol (ids `@user@domain`, signed by the server) for
 * compatible servers (NodeInfo names this software or protocol), ActivityPub for a domain whose
 * actors were met by URL (resolve.ts) and whose NodeInfo does not say it is compatible.
 */
import { nodeInfoOf } from '@agora/common/federation';
import type { FederationContext } from '../context';

export async function isAgoraPeer(ctx: FederationContext, domain: string): Promise<boolean> {
  const info = await nodeInfoOf(
    { fetch: ctx.federation.fetch, config: ctx.config, servers: ctx.stores.remoteServers },
    domain,
  ).catch(() => undefined);
  return info?.compatible === true;
}

export async function speaksActivityPub(ctx: FederationContext, domain: string): Promise<boolean> {
  if (!(await ctx.stores.activityPub.isActivityPubPeer(domain))) return false;
  return !(await isAgoraPeer(ctx, domain));
}
