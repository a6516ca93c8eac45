/**
 * A local user's share (a boost, ADR 0024) on the ActivityPub wire: the share is a post of this
 * server (`shareOf` the original), planned as any public post (to the sharer's followers, and to
 * the original's author when their server speaks ActivityPub: delivery/shares.ts). To an
 * ActivityPub peer its `Create` goes as an `Announce` of the original's URL by the sharer
 * (`to` Public, `cc` the sharer's followers and the original's author) and its `Delete` as the
 * `Undo` of that Announce; the Announce's id is the share's URL with `#announce`, so the Undo
 * names it whenever it is sent. The same Announce is what the share's URL and the sharer's outbox
 * show (collections.ts), as Mastodon shows a reblog. A share of a post with no ActivityPub URL
 * (another Agora server's) goes as its Note, as on the spec's wire.
 */
import type { PostDoc } from '@agora/common/db';
import type { FederationContext } from '../context';
import { localUrlOf, type IdMap } from './ids';
import { authorUrlOf } from './outbound-content';
import { AP_CONTEXT, AP_PUBLIC } from './vocab';
import { type Json, isObject } from './json';

/** The id of the Announce a share is sent as. */
export function announceIdOf(shareUrl: string): string {
  return `${shareUrl}#announce`;
}

/**
 * The Announce a local share is (no `@context`): by `actorUrl` (the sharer's), of the original's
 * URL; undefined for a post that is not a share, and for a share whose original has no
 * ActivityPub URL.
 */
export async function announceOf(
  ctx: FederationContext,
  ids: IdMap,
  share: Pick<PostDoc, 'id' | 'shareOf' | 'publishedAt'>,
  actorUrl: string,
): Promise<Json | undefined> {
  const shareUrl = localUrlOf(ctx.config, share.id);
  if (!shareUrl || !share.shareOf) return undefined;
  const original = await ids.urlOf(share.shareOf);
  if (!original) return undefined;
  const author = await authorUrlOf(ctx, ids, share.shareOf);
  return {
    id: announceIdOf(shareUrl),
    type: 'Announce',
    actor: actorUrl,
    object: original,
    published: new Date(share.publishedAt).toISOString(),
    to: [AP_PUBLIC],
    cc: [`${actorUrl}/followers`, ...(author && author !== actorUrl ? [author] : [])],
  };
}

/**
 * The Announce (for a Create) or its Undo (for a Delete) of a local share; undefined for any
 * other activity, and for a share whose original has no ActivityPub URL.
 */
export async function shareToAp(
  ctx: FederationContext,
  ids: IdMap,
  activity: Json,
  actorUrl: string,
): Promise<Json | undefined> {
  if (activity.type !== 'Create' && activity.type !== 'Delete') return undefined;
  const postId = isObject(activity.object) ? activity.object.id : activity.object;
  if (typeof postId !== 'string' || !postId.startsWith('post:') || !localUrlOf(ctx.config, postId))
    return undefined;
  const share = await ctx.stores.posts.byId(postId);
  const announce = share ? await announceOf(ctx, ids, share, actorUrl) : undefined;
  if (!announce) return undefined;
  if (activity.type === 'Create') return { '@context': AP_CONTEXT, ...announce };
  return {
    '@context': AP_CONTEXT,
    id: `${localUrlOf(ctx.config, postId)}#undo-announce`,
    type: 'Undo',
    actor: actorUrl,
    to: announce.to,
    cc: announce.cc,
    object: announce,
  };
}
