/**
 * What the content stores (posts, replies, reactions, pages, bookmarks, groups) add to
 * ObjectCollection over the engine port (ADR 0013): the defaults and timestamps their mongoose
 * schemas used to fill in, dates normalised at the declared paths (a client's ISO string stored
 * as a string would compare as text on MongoDB and as a date on SQLite), and `scanPage` for the
 * lists whose optional filters no single index can serve: an indexed range read by keyset, the
 * rest tested in memory, the total counted on the way (admin lists and a few public lists whose
 * audience test is a disjunction; the port has no `$or`).
 */
import { readableAudiences, type Viewer } from '../../audience/viewer';
import { compareBySort } from '../engine/documents';
import type { CollectionSpec, Engine, Filter, Scalar, Sort } from '../engine/port';
import { ObjectCollection, type FoundRows, type ObjectRow, type PageRequest } from './object-collection';
import { withSource } from './content-records';

/** A projection for a list view (which fields each item carries), as the views declare it. */
export type Fields = Readonly<Record<string, number>>;

/** Keyset batches of a scan: large enough that an admin list is a few reads, small enough to stream. */
const SCAN_BATCH = 200;

/** `value` as a Date when it is a date string or a time (a client's `publishedAt`). */
function asDate(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? value : d;
  }
  return value;
}

/** Dates at the declared paths (`event.startDate` too), in place. */
export function normaliseDates(doc: Record<string, unknown>, paths: readonly string[]): void {
  for (const path of paths) {
    const parts = path.split('.');
    let node: unknown = doc;
    for (const p of parts.slice(0, -1)) node = (node as Record<string, unknown> | undefined)?.[p];
    const last = parts.at(-1)!;
    if (node && typeof node === 'object' && last in node) {
      const holder = node as Record<string, unknown>;
      holder[last] = asDate(holder[last]);
    }
    // A dotted key of a `$set` (`event.startDate`) names the path itself.
    if (parts.length > 1 && path in doc) doc[path] = asDate(doc[path]);
  }
}

/** The fields a list view asked for (`{ id: 1, … }` includes, `{ body: 0 }` excludes), without `_id`. */
export function project<T extends object>(doc: T, fields?: Fields): T {
  const { _id, ...rest } = doc as T & { _id?: unknown };
  void _id;
  if (!fields) return rest as T;
  const included = Object.keys(fields).filter((k) => k !== '_id' && fields[k] === 1);
  if (included.length)
    return Object.fromEntries(included.filter((k) => k in rest).map((k) => [k, (rest as never)[k]])) as T;
  const excluded = new Set(Object.keys(fields).filter((k) => fields[k] === 0));
  return Object.fromEntries(Object.entries(rest).filter(([k]) => !excluded.has(k))) as T;
}

export class ContentCollection<T extends ObjectRow> extends ObjectCollection<T> {
  private readonly datePaths: readonly string[];

  constructor(
    engine: Engine,
    spec: CollectionSpec,
    /** What a new object holds unless given (the schema defaults it was stored with). */
    private readonly defaults: () => Record<string, unknown>,
  ) {
    super(engine, spec);
    this.datePaths = spec.dates ?? [];
  }

  /** A new object with its defaults, dates and timestamps. */
  protected async insertNew(doc: Record<string, unknown> & { id: string }): Promise<T> {
    const now = new Date();
    const row: Record<string, unknown> = { ...this.defaults(), createdAt: now, updatedAt: now };
    for (const [k, v] of Object.entries(withSource(doc))) if (v !== undefined && k !== '_id') row[k] = v;
    normaliseDates(row, this.datePaths);
    return this.insert(row as Omit<T, '_id'>);
  }

  /** Sets (and unsets) fields, moving `updatedAt`; the object after, null when missing. */
  override async set(
    id: string,
    fields: Record<string, unknown>,
    unset: readonly string[] = [],
  ): Promise<T | null> {
    const set: Record<string, unknown> = { ...fields, updatedAt: new Date() };
    normaliseDates(set, this.datePaths);
    return super.set(id, set, unset);
  }

  override async softDelete(
    id: string,
    fields: Record<string, unknown> & { deletedAt: Date },
  ): Promise<T | null> {
    return super.softDelete(id, { ...fields, updatedAt: new Date() });
  }

  override async restore(id: string, fields: Record<string, unknown> = {}): Promise<T | null> {
    return super.restore(id, { ...fields, updatedAt: new Date() });
  }

  /** Live objects matching an indexed filter (a count an index serves). */
  protected async countWhere(filter: Filter): Promise<number> {
    return this.rows.count(filter);
  }

  /** Live ones (GET /admin/system): a count over the `deletedAt` index. */
  async countLive(): Promise<number> {
    return this.rows.count({ deletedAt: null });
  }

  /** Every live object, in `_id` order a batch at a time (the search index's one-time backfill). */
  async *allLive(): AsyncGenerator<T> {
    for await (const batch of this.rows.scan()) for (const d of batch) if (!d.deletedAt) yield d;
  }

  /**
   * Tombstones every live object of an author in place (account deletion): each document
   * atomically, over the `(actorId, deletedAt)` index.
   */
  async tombstoneByAuthor(actorId: string, at: Date, by: string): Promise<number> {
    return this.rows.updateMany(
      { actorId, deletedAt: null },
      { $set: { deletedAt: at, deletedBy: by, type: 'Tombstone', updatedAt: at } },
    );
  }

  /**
   * A page of what a viewer may read among `base` (canSee: addressed to one of the viewer's
   * audiences, or their own), in `sort` order: the documents addressed to the viewer's audiences
   * (one index range, `to` $in, read up to the page's end and counted) merged with the viewer's
   * own ones addressed elsewhere (the owner's range). It costs what the page and the viewer's own
   * objects hold, not what `base` holds.
   */
  protected async pageVisible(
    base: Filter,
    viewer: Viewer,
    domain: string,
    req: PageRequest,
    sort: Sort,
    fields?: Fields,
  ): Promise<FoundRows<T>> {
    const audiences = readableAudiences(viewer, domain);
    const addressed: Filter = { ...base, to: { $in: audiences } };
    const end = req.skip + req.limit;
    const [shared, sharedTotal, own] = await Promise.all([
      this.rows.find(addressed, { sort, limit: end }),
      this.rows.count(addressed),
      viewer.id ? this.rows.find({ ...base, actorId: viewer.id }, { sort }) : Promise.resolve([]),
    ]);
    const held = new Set(audiences);
    const toOf = (d: T) => (d as { to?: unknown }).to;
    const elsewhere = own.filter((d) => {
      const to = toOf(d);
      return !(typeof to === 'string' && held.has(to));
    });
    const page = [...shared, ...elsewhere].sort(compareBySort(sort)).slice(req.skip, end);
    return {
      total: sharedTotal + elsewhere.length,
      items: fields ? page.map((d) => project(d, fields)) : page,
    };
  }

  /**
   * A page of the objects an indexed read (`filter` sorted by `sort`, which should end in `_id`)
   * yields and `keep` accepts, with their total: the read walks by keyset to the end of the range,
   * so it costs what the range holds. For lists no one index serves (admin filters, audiences).
   */
  protected async scanPage(
    filter: Filter,
    keep: (doc: T) => boolean,
    req: PageRequest,
    sort: Sort,
    fields?: Fields,
  ): Promise<FoundRows<T>> {
    const items: T[] = [];
    let total = 0;
    let after: Scalar[] | undefined;
    const keyOf = (d: T): Scalar[] =>
      sort.map(([f]) => {
        const v = f.split('.').reduce<unknown>((n, p) => (n as Record<string, unknown> | undefined)?.[p], d);
        return (v ?? null) as Scalar;
      });
    for (;;) {
      const batch = await this.rows.find(filter, { sort, limit: SCAN_BATCH, ...(after ? { after } : {}) });
      for (const d of batch) {
        if (!keep(d)) continue;
        if (total >= req.skip && items.length < req.limit) items.push(fields ? project(d, fields) : d);
        total++;
      }
      if (batch.length < SCAN_BATCH) break;
      after = keyOf(batch.at(-1)!);
    }
    return { total, items };
  }
}
