/**
 * Circle timelines are precomputed (decisions.md §5): a post gets one row per circle its
 * author is a member of; a member added to a circle brings their recent posts along; a member
 * removed takes them away. Reads are then one indexed query per circle. Every change bumps the
 * stamps of the circles it touched, so cached timeline pages (timelines/cache.ts) go stale at once.
 */
import { STAMPS, type PostDoc, type Runtime } from '@agora/common';

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

function touch(rt: Runtime, circleIds: string[]): Promise<void> {
  return rt.stamps.bump(circleIds.map(STAMPS.circle));
}

/** The circles whose timelines hold a post. */
export async function circlesOfPost(rt: Runtime, postId: string): Promise<string[]> {
  return (await rt.repos.models.TimelineEntry.distinct('circleId', { postId })).map(String);
}

export async function fanOutPost(rt: Runtime, post: PostLike): Promise<number> {
  const { models } = rt.repos;
  const circles = await models.Circle.find({ 'members.id': post.actorId, deletedAt: null }, { id: 1 }).lean();
  if (!circles.length) return 0;
  await models.TimelineEntry.bulkWrite(
    circles.map((c) => row(c.id, post)),
    { ordered: false },
  );
  await touch(
    rt,
    circles.map((c) => c.id),
  );
  return circles.length;
}

export async function backfillMember(rt: Runtime, circleId: string, memberId: string): Promise<void> {
  const { models } = rt.repos;
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
  await touch(rt, [circleId]);
}

export async function dropMember(rt: Runtime, circleId: string, memberId: string): Promise<void> {
  await rt.repos.models.TimelineEntry.deleteMany({ circleId, authorId: memberId });
  await touch(rt, [circleId]);
}

export async function dropPost(rt: Runtime, postId: string): Promise<void> {
  const circles = await circlesOfPost(rt, postId);
  await rt.repos.models.TimelineEntry.deleteMany({ postId });
  await rt.stamps.bump([STAMPS.post(postId), ...circles.map(STAMPS.circle)]);
}

/**
 * A post changed (Update): keep the rows' copies of `to` and `type` in step, and make every
 * cached page holding the post stale.
 */
export async function refreshPost(
  rt: Runtime,
  postId: string,
  set: { to?: unknown; type?: unknown },
): Promise<void> {
  const copies = {
    ...(typeof set.to === 'string' ? { to: set.to } : {}),
    ...(typeof set.type === 'string' ? { type: set.type } : {}),
  };
  if (Object.keys(copies).length)
    await rt.repos.models.TimelineEntry.updateMany({ postId }, { $set: copies });
  await touchPost(rt, postId);
}

/** A post's counters or content changed: every cached page holding it is stale. */
export async function touchPost(rt: Runtime, postId: string): Promise<void> {
  const circles = await circlesOfPost(rt, postId);
  await rt.stamps.bump([STAMPS.post(postId), ...circles.map(STAMPS.circle)]);
}

/** A circle was changed or deleted: its pages, and its members' audiences, are stale. */
export async function touchCircle(rt: Runtime, circleId: string, memberIds: string[]): Promise<void> {
  await rt.stamps.bump([STAMPS.circle(circleId), ...memberIds.map(STAMPS.viewer)]);
}
