/**
 * A post's media changed outside an Update activity (a file's new description): recorded as its
 * author's Update of the post, with the `post.updated` event, like every write (record-write.ts).
 */
import { domainEvent } from '@agora/common/messaging';
import type { SocialContext } from '../context';
import { recordWrite } from '../record-write';

export async function recordMediaUpdate(
  ctx: SocialContext,
  post: { id: string; actorId: string },
): Promise<void> {
  await recordWrite(
    ctx,
    { type: 'Update', objectType: 'Post', actorId: post.actorId, objectId: post.id, target: post.id },
    [
      domainEvent('post.updated', {
        objectId: post.id,
        objectType: 'Post',
        actorId: post.actorId,
        ownerId: post.actorId,
        fields: ['media'],
      }),
    ],
  );
}
