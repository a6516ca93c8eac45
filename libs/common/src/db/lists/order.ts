/** The two orders a list walk reads in (ListStore `newest`, `oldest`). */
import type { Source } from './ranges';
import type { ListEntry } from './store';

/** An order of a walk: how sources are visited, whether one may hold an entry before `e`, and entries' order. */
export interface Order {
  sources: (a: Source, b: Source) => number;
  mayPrecede: (s: Source, e: ListEntry) => boolean;
  entries: (a: ListEntry, b: ListEntry) => number;
}

const byId = (a: ListEntry, b: ListEntry): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Newest first; equal times: the greater id first (minted ids grow with time), as `{at: -1, id: -1}`. */
export const NEWEST: Order = {
  sources: (a, b) => b.hi - a.hi,
  mayPrecede: (s, e) => s.hi >= e.at.getTime(),
  entries: (a, b) => b.at.getTime() - a.at.getTime() || byId(b, a),
};

/** Oldest first, as `{at: 1, id: 1}`. */
export const OLDEST: Order = {
  sources: (a, b) => a.lo - b.lo,
  mayPrecede: (s, e) => s.lo <= e.at.getTime(),
  entries: (a, b) => a.at.getTime() - b.at.getTime() || byId(a, b),
};
