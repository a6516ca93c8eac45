/** The collection envelopes of spec 1.5 around a described item. */
import { z } from 'zod';

export function collectionOf<S extends z.ZodType>(item: S) {
  return z.object({
    type: z.enum(['OrderedCollection', 'OrderedCollectionPage']),
    totalItems: z.number(),
    orderedItems: z.array(item),
    totalPages: z.number().optional(),
    currentPage: z.number().optional(),
  });
}

/** A circle timeline page: a collection with the cursor of the next page. */
export function timelineOf<S extends z.ZodType>(item: S) {
  return collectionOf(item).extend({ nextCursor: z.string().optional() });
}
