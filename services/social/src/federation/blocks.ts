/**
 * Blocked domains as the social service sees them (docs/federation.md, "Blocking a domain"): a
 * blocked server's signed reads and pulls are refused, lookups and page fetches to it are refused,
 * and activities of its accepted before the block are not applied. One cached set per context
 * (read again when an admin's block or unblock moves its stamp).
 */
import { NotAuthorized } from '@agora/common/errors';
import { domainBlocks, type DomainBlocks } from '@agora/common/federation';
import type { SocialContext } from '../context';

const BLOCKS = new WeakMap<SocialContext, DomainBlocks>();

export function blocksOf(ctx: SocialContext): DomainBlocks {
  let blocks = BLOCKS.get(ctx);
  if (!blocks) {
    blocks = domainBlocks(ctx.stores.remoteServers, ctx.stamps);
    BLOCKS.set(ctx, blocks);
  }
  return blocks;
}

/** 403 when `domain` is blocked. */
export async function refuseBlocked(ctx: SocialContext, domain: string | undefined): Promise<void> {
  if (domain && (await blocksOf(ctx).isBlocked(domain)))
    throw new NotAuthorized(`${domain} is blocked by this server`);
}
