/**
 * The objects the search index stands for, read from their own collections: users, posts, pages,
 * groups and bookmarks are still mongoose models (their stores move onto the engine port with
 * their own groups, issue 22), so this reader is the one place search touches them.
 */
import type { Models } from '../models';
import type { SearchKind, SearchSources } from './search';

export function modelSources(models: Models): SearchSources {
  const modelOf = (kind: Exclude<SearchKind, 'User'>) => {
    const m = { Post: models.Post, Page: models.Page, Group: models.Group, Bookmark: models.Bookmark };
    return m[kind] as typeof models.Post;
  };
  return {
    async source(kind, id) {
      // `_id` is the object's id (ADR 0005); liveness is checked on the one document.
      const doc =
        kind === 'User'
          ? await models.User.findOne({ _id: id }).lean<Record<string, unknown>>()
          : await modelOf(kind).findOne({ _id: id }).lean<Record<string, unknown>>();
      if (!doc || doc.deletedAt || (kind === 'User' && doc.active === false)) return null;
      return doc;
    },
    async *allSources(kind) {
      const cursor =
        kind === 'User'
          ? models.User.find({ deletedAt: null }).lean<Record<string, unknown>>().cursor()
          : modelOf(kind).find({ deletedAt: null }).lean<Record<string, unknown>>().cursor();
      for await (const doc of cursor) yield doc;
    },
  };
}
