/**
 * What an account authored, as one aggregate for the moment the account goes away
 * (docs/security.md, "Deleted accounts"). Withdrawing takes it all out at once: every post through
 * PostsStore (so it leaves every list and timeline, and the pull answers it as a tombstone), the
 * circles the account owned through CirclesStore (so their members' memberships follow),
 * its files through FilesStore (unattached public ones included; the GC removes the bytes),
 * its search index entries through SearchStore (so no count can include them), and the
 * rest tombstoned in place; the GC removes the tombstones after retention.
 */
import type { CirclesStore } from './circles';
import type { FilesStore } from './files';
import type { PostsStore } from './posts';
import type { RepliesStore } from './replies';
import type { BookmarksStore, PagesStore } from './content';
import type { SearchStore } from './search';

export interface WithdrawnContent {
  /** Posts tombstoned now (their cached copies must go stale). */
  postIds: string[];
  /** Circles whose timelines held the author's posts, and the author's own (all now stale). */
  circleIds: string[];
}

export class AccountContentStore {
  constructor(
    private readonly stores: {
      posts: PostsStore;
      replies: RepliesStore;
      pages: PagesStore;
      bookmarks: BookmarksStore;
      circles: CirclesStore;
      files: FilesStore;
      search: SearchStore;
    },
  ) {}

  async withdraw(authorId: string, at: Date, by: string): Promise<WithdrawnContent> {
    const { posts, replies, pages, bookmarks, circles, files, search } = this.stores;
    const postIds: string[] = [];
    const touched = new Set<string>();
    for (const p of await posts.allByAuthor(authorId)) {
      const before = await posts.softDeletePost(p.id, by);
      if (!before) continue;
      postIds.push(p.id);
      for (const c of before.circles ?? []) touched.add(c);
    }
    // Scans by author: an account is deleted rarely.
    await replies.tombstoneByAuthor(authorId, at, by);
    await pages.tombstoneByAuthor(authorId, at, by);
    await bookmarks.tombstoneByAuthor(authorId, at, by);
    // Circles keep their type (System circles stay recognisable); only their life ends.
    for (const id of await circles.liveIdsOwnedBy(authorId)) {
      await circles.softDeleteCircle(id, by);
      touched.add(id);
    }
    await files.deleteOwnedBy(authorId);
    // Last: an index entry removed before its object was tombstoned could come back with a
    // reindex of the still-live object.
    await search.removeByActor(authorId);
    return { postIds, circleIds: [...touched] };
  }
}
