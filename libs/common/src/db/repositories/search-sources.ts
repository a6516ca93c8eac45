/**
 * The objects the search index stands for, read back through their stores (to index them and to
 * verify a candidate before it is shown): posts, pages, groups and bookmarks, and users. Liveness
 * is checked here: a deleted object, or a deactivated user, is no source.
 */
import type { Models } from '../models';
import type { SearchKind, SearchSources } from './search';

/** What search needs of a store: one object by id, every live one (a cursor, never all in memory). */
interface Readable {
  byId(id: string): Promise<object | null>;
  allLive(): AsyncIterable<object>;
}

export function storeSources(
  stores: Record<Exclude<SearchKind, 'User'>, Readable>,
  models: Models,
): SearchSources {
  return {
    async source(kind, id) {
      const doc = (
        kind === 'User'
          ? await models.User.findOne({ _id: id }).lean<Record<string, unknown>>()
          : await stores[kind].byId(id)
      ) as Record<string, unknown> | null;
      if (!doc || doc.deletedAt || (kind === 'User' && doc.active === false)) return null;
      return doc;
    },
    async *allSources(kind) {
      const all =
        kind === 'User'
          ? models.User.find({ deletedAt: null }).lean<Record<string, unknown>>().cursor()
          : stores[kind].allLive();
      for await (const doc of all) yield doc as Record<string, unknown>;
    },
  };
}
