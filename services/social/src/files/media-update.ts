/**
 * A post's media changed outside an Update activity (a file's new description): recorded as its
 * author's Update of the post, with the `post.updated` event in the event outbox before the
 * answer, published after (the relay republishes what a crash left), like every write.
 */
import { mintId } from '@agora/common/db';
import { domainEvent, publishEvents } from '@agora/common/messaging';
import type { SocialContext } from '../context';

export async function recordMediaUpdate(
  ctx: SocialContext,
  post: { id: string; actorId: string },
): Promise<void> {
  const id = mintId('activity', ctx.config.DOMAIN);
  const events = [
    domainEvent('post.updated', {
      objectId: post.id,
      objectType: 'Post',
      actorId: post.actorId,
      ownerId: post.actorId,
      fields: ['media'],
    }),
  ];
  await ctx.stores.activities.record(
    {
      id,
      type: 'Update',
      objectType: 'Post',
      actorId: post.actorId,
      objectId: post.id,
      target: post.id,
      server: `@${ctx.config.DOMAIN}`,
    },
    events,
  );
  await publishEvents(ctx, id, events);
}
