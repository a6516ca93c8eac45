/**
 * Announce (a boost, ADR 0024; an extension of POST /outbox, whose activity types are open):
 * `{ type: 'Announce', object: <post id> }` shares a public post the user can read (a local one,
 * or another server's held here) as a public post by the user quoting it (`shareOf` the
 * original, `url` the original's, the body built as an inbound Announce's is), fanned out to the
 * timelines of the user's followers and federated (`post.created`). A second boost of the same
 * post answers the share already made (`existing`: 200, nothing stored or sent). Its Undo
 * (`object`: the share, or the Announce activity, or `{ type: 'Announce', object: <original> }`)
 * deletes the share as a Delete of it does. Boosting a share boosts the post it shares.
 */
import { newShare } from '@agora/common/content';
import { DuplicateKeyError, type PostRecord } from '@agora/common/db';
import { BadRequest, NotFound } from '@agora/common/errors';
import { domainEvent } from '@agora/common/messaging';
import type { ActivityHandler, HandlerContext, HandlerResult } from '../../types';
import { actorRef, clean, idString, parse } from '../../validate';
import { kindAmong, visibleTarget } from '../interactions/targets';
import { del } from '../interactions/delete';
import { heldShares, liveShare } from './held';

function shared(share: PostRecord | Record<string, unknown>, existing: boolean): HandlerResult {
  const { circles, ...rest } = clean(share as Record<string, unknown>) ?? {};
  void circles;
  const id = String(share.id);
  return {
    result: rest,
    objectId: id,
    objectType: 'Post',
    target: String(share.shareOf),
    to: '@public',
    ...(existing ? { existing: true } : {}),
  };
}

export const announce: ActivityHandler = async (ctx) => {
  const { svc, actor, viewer } = ctx;
  const originalId = parse(idString, ctx.activity.object, 'object');
  kindAmong(svc, originalId, ['post'], 'object', { copies: true });
  const { doc } = await visibleTarget(svc, viewer, originalId, { copies: true });
  if (doc.to !== '@public') throw new BadRequest('object: only a public post can be shared');
  // Boosting a share boosts what it shares (a share is never of a share, so this recurses once).
  if (typeof doc.shareOf === 'string')
    return announce({ ...ctx, activity: { ...ctx.activity, object: doc.shareOf } });
  const held = await heldShares(svc, actor.id, originalId);
  if (held.live) return shared(held.live, true);
  const share = newShare(
    {
      id: originalId,
      url: typeof doc.url === 'string' && doc.url ? doc.url : originalId,
      author: String(doc.actorId),
      content: typeof doc.body === 'string' ? doc.body : '',
      contentWarning: typeof doc.contentWarning === 'string' ? doc.contentWarning : undefined,
      sensitive: doc.sensitive === true,
    },
    {
      id: held.freeId,
      author: actorRef(actor),
      server: `@${svc.config.DOMAIN}`,
    },
  );
  let created: PostRecord;
  try {
    created = await svc.stores.posts.createLocal(share, { circles: viewer.circleIds });
  } catch (err) {
    // Another boost of the same post made it first: answer that one.
    const first = err instanceof DuplicateKeyError ? await liveShare(svc, actor.id, originalId) : undefined;
    if (first) return shared(first, true);
    throw err;
  }
  return {
    ...shared(created, false),
    events: [
      domainEvent('post.created', { postId: share.id, actorId: actor.id, to: '@public', type: 'Note' }),
    ],
    stored: created,
  };
};

/** Undo of a share by its id: the actor's own live share (404 otherwise). */
export async function unshare(ctx: HandlerContext, shareId: string): Promise<HandlerResult> {
  const share = await ctx.svc.stores.posts.liveById(shareId);
  if (!share?.shareOf || share.actorId !== ctx.actor.id) throw new NotFound('No share of yours has that id');
  return del({ ...ctx, activity: { type: 'Delete', target: share.id } });
}

/** Undo of the actor's share of a post: undefined when they have none. */
export async function unshareOf(ctx: HandlerContext, originalId: string): Promise<HandlerResult | undefined> {
  const share = await liveShare(ctx.svc, ctx.actor.id, originalId);
  return share ? del({ ...ctx, activity: { type: 'Delete', target: share.id } }) : undefined;
}
