/** Wire fields the screens read beyond web/src/api/types.ts (kept apart: that file is generated). */

/** The markdown an object was written in, as the server stores it (`source.content`). */
export interface WithSource {
  source?: { content?: string; mediaType?: string } | null;
}

/** A search result or a Discover card: who wrote it, when, and an excerpt. */
export interface Described {
  id: string;
  type?: string;
  name?: string;
  title?: string;
  summary?: string | null;
  slug?: string;
  username?: string;
  published?: string | null;
  createdAt?: string | null;
  attributedTo?: { id?: string | null; name?: string | null } | null;
  actor?: { id?: string | null; name?: string | null } | null;
  actorId?: string;
  profile?: { name?: string | null } | null;
}
