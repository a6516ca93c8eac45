/** The two orders a list walk reads in (ListStore `newest`, `oldest`), built on cursor.ts's order. */
import { newestFirst, oldestFirst } from './cursor';
import type { Source } from './ranges';
import type { ListEntry } from './store';

/** An order of a walk: how sources are visited, whether one may hold an entry before `e`, and entries' order. */
export interface Order {
  sources: (a: Source, b: Source) => number;
  mayPrecede: (s: Source, e: ListEntry) => boolean;
  entries: (a: ListEntry, b: ListEntry) => number;
}

/**
 * Newest first; equal times: the greater id first (ids are random, so this is no time order, but
 * it is total and the same as a cursor's, `{at: -1, _id: -1}` on an engine). A source whose
 * newest entry is as new as `e` may hold one of its millisecond with a greater id: visited.
 */
export const NEWEST: Order = {
  sources: (a, b) => b.hi - a.hi,
  mayPrecede: (s, e) => s.hi >= e.at.getTime(),
  entries: newestFirst,
};

/** Oldest first, as `{at: 1, _id: 1}`: the exact reverse. */
export const OLDEST: Order = {
  sources: (a, b) => a.lo - b.lo,
  mayPrecede: (s, e) => s.lo <= e.at.getTime(),
  entries: oldestFirst,
};
