/**
 * Where a user's share of a post is kept (ADR 0024): its id is derived from the sharer, the
 * original and a generation (`post:<hash>@domain`), so finding a user's share of a post is a
 * read by id, and two boosts racing make one post (the second insert is a duplicate). A share
 * undone stays a tombstone under its id until the garbage collector purges it; boosting again
 * takes the next generation, so every share has an id (and an ActivityPub `Announce` id) of its
 * own.
 */
import { createHash } from 'node:crypto';
import type { PostRecord } from '@agora/common/db';
import { Conflict } from '@agora/common/errors';
import type { SocialContext } from '../../../context';

/** Shares of one post by one user kept at once (live, or undone and not yet purged). */
export const SHARE_GENERATIONS = 16;

export function shareIdOf(ctx: SocialContext, sharer: string, original: string, generation: number): string {
  const hash = createHash('sha256').update(`${sharer}\n${original}\n${generation}`).digest('hex');
  return `post:${hash.slice(0, 24)}@${ctx.config.DOMAIN}`;
}

const generations = (ctx: SocialContext, sharer: string, original: string) =>
  Array.from({ length: SHARE_GENERATIONS }, (_, g) => shareIdOf(ctx, sharer, original, g));

/** The user's live share of the post, if they have one. */
export async function liveShare(
  ctx: SocialContext,
  sharer: string,
  original: string,
): Promise<PostRecord | undefined> {
  const ids = generations(ctx, sharer, original);
  const live = await ctx.stores.posts.liveByIds(ids);
  return ids.map((id) => live.get(id)).find((p) => p?.shareOf === original && p.actorId === sharer);
}

/** The id a new share takes: the first generation no post holds (409 when every one is taken). */
export async function freeShareId(ctx: SocialContext, sharer: string, original: string): Promise<string> {
  for (const id of generations(ctx, sharer, original)) if (!(await ctx.stores.posts.byId(id))) return id;
  throw new Conflict('object: this post was shared and undone too often lately; try again later');
}
