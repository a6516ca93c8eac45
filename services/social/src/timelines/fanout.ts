/**
 * Circle timelines are precomputed (decisions.md §5): a post gets one row per circle its
 * author is a member of; a member added to a circle brings their recent posts along; a member
 * removed takes them away. Reads are then one indexed query per circle.
 */
import type { Models, PostDoc } from '@agora/common';

const BACKFILL = 200;

type PostLike = Pick<PostDoc, 'id' | 'actorId' | 'to' | 'type' | 'publishedAt'>;

function row(circleId: string, p: PostLike) {
  return {
    updateOne: {
      filter: { postId: p.id, circleId },
      update: {
        $set: {
          circleId,
          postId: p.id,
          authorId: p.actorId,
          to: p.to,
          type: p.type,
          publishedAt: p.publishedAt,
        },
      },
      upsert: true,
    },
  };
}

export async function fanOutPost(models: Models, post: PostLike): Promise<number> {
  const circles = await models.Circle.find({ 'members.id': post.actorId, deletedAt: null }, { id: 1 }).lean();
  if (!circles.length) return 0;
  await models.TimelineEntry.bulkWrite(
    circles.map((c) => row(c.id, post)),
    { ordered: false },
  );
  return circles.length;
}

export async function backfillMember(models: Models, circleId: string, memberId: string): Promise<void> {
  const posts = await models.Post.find(
    { actorId: memberId, deletedAt: null },
    { id: 1, actorId: 1, to: 1, type: 1, publishedAt: 1 },
  )
    .sort({ publishedAt: -1 })
    .limit(BACKFILL)
    .lean();
  if (posts.length)
    await models.TimelineEntry.bulkWrite(
      posts.map((p) => row(circleId, p as PostLike)),
      { ordered: false },
    );
}

export async function dropMember(models: Models, circleId: string, memberId: string): Promise<void> {
  await models.TimelineEntry.deleteMany({ circleId, authorId: memberId });
}

export async function dropPost(models: Models, postId: string): Promise<void> {
  await models.TimelineEntry.deleteMany({ postId });
}

/** A post's audience changed (Update): keep the rows' copy of `to` in step. */
export async function retagPost(models: Models, postId: string, to: string): Promise<void> {
  await models.TimelineEntry.updateMany({ postId }, { $set: { to } });
}
