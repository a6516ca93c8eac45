/**
 * The objects the search index stands for, read back through their stores (to index them and to
 * verify a candidate before it is shown): posts, pages, groups and bookmarks, and users. Liveness
 * is checked here: a deleted object, or a deactivated user, is no source.
 */
import type { SearchKind, SearchSources } from './search';

/** What search needs of a store: one object by id, every live one (a cursor, never all in memory). */
interface Readable {
  byId(id: string): Promise<object | null>;
  allLive(): AsyncIterable<object>;
}

export function storeSources(stores: Record<SearchKind, Readable>): SearchSources {
  return {
    async source(kind, id) {
      const doc = (await stores[kind].byId(id)) as Record<string, unknown> | null;
      if (!doc || doc.deletedAt || (kind === 'User' && doc.active === false)) return null;
      return doc;
    },
    async *allSources(kind) {
      for await (const doc of stores[kind].allLive()) yield doc as Record<string, unknown>;
    },
  };
}
