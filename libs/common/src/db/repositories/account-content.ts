/**
 * What an account authored, as one aggregate for the moment the account goes away
 * (docs/security.md, "Deleted accounts"). Withdrawing tombstones it all in a few writes by
 * top-level equality on the author, so every listing, timeline, search and federation pull
 * (they all read `deletedAt: null`) stops showing it at once; the GC worker removes the
 * tombstones after the retention period like any other deleted content.
 */
import type { Models } from '../models';

export interface WithdrawnContent {
  /** Posts tombstoned now (the pull answers them as tombstones; their caches must go stale). */
  postIds: string[];
  /** Circles whose timelines held the author's posts, and the author's own (all now stale). */
  circleIds: string[];
}

export class AccountContentRepository {
  constructor(private readonly models: Models) {}

  async withdraw(authorId: string, at: Date, by: string): Promise<WithdrawnContent> {
    const m = this.models;
    const live = { actorId: String(authorId), deletedAt: null };
    const tomb = { $set: { deletedAt: at, deletedBy: by, type: 'Tombstone' } };
    const posts = await m.Post.find(live, { id: 1 }).lean();
    // Timelines show the author's posts in the circles the author is a member of (fan-out).
    const circles = await m.Circle.find({ 'members.id': String(authorId) }, { id: 1 }).lean();
    const owned = await m.Circle.find(live, { id: 1 }).lean();
    await m.Post.updateMany(live, tomb);
    await m.Reply.updateMany(live, tomb);
    await m.Page.updateMany(live, tomb);
    await m.Bookmark.updateMany(live, tomb);
    // Circles keep their type (System circles stay recognisable); only their life ends.
    await m.Circle.updateMany(live, { $set: { deletedAt: at, deletedBy: by } });
    await m.TimelineEntry.deleteMany({ authorId: String(authorId) });
    return { postIds: posts.map((p) => p.id), circleIds: [...circles, ...owned].map((c) => c.id) };
  }
}
