/**
 * Ordered lists on the bucket pattern (ADR 0005): timelines, the public post lists, an author's
 * posts. Appends go to the newest bucket; each bucket's time range is kept on the head so a
 * reader visits buckets newest-range first and stops as soon as no unread bucket can hold a
 * newer entry. Entries are never edited in place: a reader checks each one against the live
 * object (deleted, no longer visible, author left the circle) and skips it, and the counters on
 * the head are moved by the stores that delete. Out-of-order appends (a member's backfill, a
 * remote post published earlier) are ordered correctly because ranges, not positions, decide.
 */
import { GroupCommit } from '../group-commit';
import { turnOf } from '../write-gate';
import { isOlder, mayHoldOlder, type Place } from './cursor';
import { packEntry, unpackEntry } from './entries';
import { NEWEST, OLDEST, type Order } from './order';
import { bulkWriteRetryingLostUpserts, headOf, type BulkOp } from './writes';
import type { AnyModel } from '../repositories/objects';
import {
  allBucketNumbers,
  bucketId,
  bucketSize,
  indexId,
  LIST_BUCKET_SIZE,
  moveRanges,
  pageId,
  pageOf,
  sourcesOf,
  sourcesOfIndex,
  sourcesOfPage,
  type BucketSource,
  type HeadRow,
  type IndexRow,
  type PageRow,
  type Source,
} from './ranges';

export { LIST_BUCKET_SIZE, LEGACY_BUCKET_SIZE, RANGE_PAGE } from './ranges';

export interface ListEntry {
  /** The listed object's id. */
  id: string;
  at: Date;
  /** Author (timelines skip authors who left the circle or whom the viewer blocks). */
  by?: string;
}

/** Entries for one list, counted under `tags` (audience tier, post type). */
export interface ListAppend {
  key: string;
  entries: ListEntry[];
  tags?: string[];
}

/** Lists opened for a page: their heads (in the order asked) and their entries newest first. */
export interface OpenedLists {
  heads: ListHead[];
  entries: AsyncGenerator<ListEntry>;
}

export interface ListHead {
  count: number;
  tags: Record<string, number>;
}

/** Stored elements: packed strings, or subdocuments in buckets written before (entries.ts). */
type BucketRow = { items?: unknown[] };

/** How long a list's sequence number is trusted from this process's memory (see `seqOf`). */
export const SEQ_HINT_MS = 2000;

/**
 * How long deferred appends (`appendLater`: a new post's circle fan-out) wait for more to share
 * their write: at least DEFERRED_LINGER_MS, and DEFERRED_SHARE times as long as their last write
 * took, so deferred writes keep at most about 1 / (DEFERRED_SHARE + 1) of the write queue however
 * many lists a post fans out to; at most DEFERRED_MAX_MS. Every use of a list in this process
 * first writes what is deferred for it at once (`settle`), so the wait shows only to other
 * processes.
 */
export const DEFERRED_LINGER_MS = 100;
export const DEFERRED_SHARE = 3;
export const DEFERRED_MAX_MS = 2000;

/** What this process knows of a list from its head (see `seqOf`). */
type Hint = { seq: number; size: number; arch: number; readAt: number };

export class ListStore {
  /** Per list: a lower bound of its sequence number, its bucket size and moved pages, and when read. */
  private readonly seqHints = new Map<string, Hint>();
  /** Appends that arrive while a write runs are written together next. */
  private readonly appends: GroupCommit<ListAppend[]>;
  /** Deferred appends, written together after lingering (`appendLater`). */
  private readonly later: GroupCommit<ListAppend[]>;
  /** Per list: when the newest deferred append to it is written (gone once it is). */
  private readonly deferred = new Map<string, Promise<void>>();
  /** How long the last deferred write took (ms). */
  private lastDeferredMs = 0;

  constructor(
    private readonly heads: AnyModel,
    private readonly buckets: AnyModel,
    lingerMs = DEFERRED_LINGER_MS,
  ) {
    this.appends = new GroupCommit((batches) => this.write(batches.flat()), turnOf(heads));
    this.later = new GroupCommit(
      async (batches) => {
        const t0 = Date.now();
        try {
          await this.write(batches.flat());
        } finally {
          this.lastDeferredMs = Date.now() - t0;
        }
      },
      turnOf(heads),
      () =>
        lingerMs <= 0
          ? 0
          : Math.min(DEFERRED_MAX_MS, Math.max(lingerMs, DEFERRED_SHARE * this.lastDeferredMs)),
    );
  }

  /**
   * A lower bound of each list's sequence number, which only picks the bucket an append goes to:
   * from memory when this process read the head less than SEQ_HINT_MS ago (plus its own appends
   * since), from the head otherwise. The sequence only grows, so the hint never names a bucket
   * past the last one readers enumerate; when other processes appended meanwhile, the entry lands
   * in a slightly older bucket than an exact count would pick, whose range the same head update
   * widens: readers stay correct, and the bucket holds a few more than its size.
   */
  private async hintsOf(keys: string[]): Promise<Map<string, Hint>> {
    const now = Date.now();
    const stale = keys.filter((k) => (this.seqHints.get(k)?.readAt ?? -Infinity) < now - SEQ_HINT_MS);
    const rows = await Promise.all(
      stale.map((key) => this.heads.findOne({ _id: key }, { seq: 1, bs: 1, arch: 1 }).lean<HeadRow>()),
    );
    if (this.seqHints.size + stale.length > 10_000) this.seqHints.clear();
    stale.forEach((key, i) =>
      this.seqHints.set(key, {
        seq: rows[i]?.seq ?? 0,
        size: bucketSize(rows[i]),
        arch: rows[i]?.arch ?? 0,
        readAt: now,
      }),
    );
    return new Map(keys.map((k) => [k, this.seqHints.get(k)!]));
  }

  /** Appends entries (tags count them on the head: audience tier, post type). */
  async append(key: string, entries: ListEntry[], tags: string[] = []): Promise<void> {
    await this.appendAll([{ key, entries, tags }]);
  }

  /**
   * Appends to several lists at once (a new post goes to its author's, its tier's and every
   * circle's list). Appends that arrive while an earlier one is being written wait and are then
   * written together, merged per list (group commit, ADR 0011): on the embedded engine a bucket
   * update costs what the bucket's size costs (FerretDB reads and rewrites the whole document),
   * not what is pushed, so ten posts appended at once cost about what one does. Resolves when
   * this call's entries are stored; a failed write fails every call it carried.
   */
  async appendAll(appends: ListAppend[]): Promise<void> {
    const work = appends.filter((a) => a.entries.length);
    if (work.length) await this.appends.add(work);
  }

  /**
   * Appends nobody waits on (ADR 0011 item 13: a new post's circle fan-out, after the post is
   * acknowledged): they wait DEFERRED_LINGER_MS for others, then share one write, so under load
   * each list is rewritten once for many posts instead of once per batch. The returned promise
   * settles when they are written. Any use of one of these lists in this process (a read, a
   * removal, a count) first writes them at once (`settle`): this process reads its own writes.
   */
  appendLater(appends: ListAppend[]): Promise<void> {
    const work = appends.filter((a) => a.entries.length);
    if (!work.length) return Promise.resolve();
    const written = this.later.add(work);
    const settled = written.catch(() => undefined);
    for (const { key } of work) this.deferred.set(key, settled);
    void settled.then(() => {
      for (const { key } of work) if (this.deferred.get(key) === settled) this.deferred.delete(key);
    });
    return written;
  }

  /** Writes every deferred append of this process now and waits for them (a service stopping). */
  async flush(): Promise<void> {
    await this.settle([...this.deferred.keys()]);
  }

  /**
   * Writes this process's deferred appends to these lists now and waits for them (batches are
   * written in order, so the newest one's write covers those before it). A failed deferred write
   * does not fail the caller: its entries are recovered from the outbox (ADR 0011 item 13).
   */
  async settle(keys: string[]): Promise<void> {
    const pending = keys.flatMap((k) => this.deferred.get(k) ?? []);
    if (!pending.length) return;
    this.later.hurry();
    await Promise.all(pending);
  }

  /**
   * One merged append in two writes whatever the number of lists: the heads' sequence numbers
   * come from `hintsOf` (memory, or reads in parallel that never wait for SQLite's single
   * writer), then one bulk write moves every head (sequence, counters, and the range of the
   * buckets the entries go to: a reader never misses a bucket), then one bulk write pushes the
   * entries into their buckets. Concurrent appends from other processes that start from the same
   * sequence number put their entries in the same bucket, which may then hold a few more than
   * its size; the sequence itself moves exactly (ADR 0011). When a list's appends reach a new
   * range page, the ranges of the pages before it move off the head first (`moveRanges`).
   */
  private async write(appends: ListAppend[]): Promise<void> {
    const byKey = new Map<string, { entries: ListEntry[]; inc: Record<string, number> }>();
    for (const { key, entries, tags = [] } of appends) {
      const list = byKey.get(key) ?? { entries: [], inc: { seq: 0, count: 0 } };
      byKey.set(key, list);
      const k = entries.length;
      list.entries.push(...entries);
      for (const name of ['seq', 'count', ...tags.map((t) => `tags.${t}`)])
        list.inc[name] = (list.inc[name] ?? 0) + k;
    }
    const hints = await this.hintsOf([...byKey.keys()]);
    const headOps: BulkOp[] = [];
    const bucketOps: BulkOp[] = [];
    const turning: Array<[string, number]> = [];
    for (const [key, { entries, inc }] of byKey) {
      const hint = hints.get(key)!;
      const first = hint.seq;
      hint.seq += entries.length;
      const byBucket = new Map<number, ListEntry[]>();
      entries.forEach((e, i) => {
        const n = Math.floor((first + i) / hint.size);
        const group = byBucket.get(n);
        if (group) group.push(e);
        else byBucket.set(n, [e]);
      });
      const page = pageOf(Math.max(...byBucket.keys()));
      if (page > hint.arch) turning.push([key, page]);
      const lo: Record<string, Date> = {};
      const hi: Record<string, Date> = {};
      for (const [n, group] of byBucket) {
        const times = group.map((e) => e.at.getTime());
        lo[`lo.${n}`] = new Date(Math.min(...times));
        hi[`hi.${n}`] = new Date(Math.max(...times));
        bucketOps.push({
          updateOne: {
            filter: { _id: bucketId(key, n) },
            update: { $push: { items: { $each: group.map(packEntry) } } },
            upsert: true,
          },
        });
      }
      headOps.push({
        updateOne: {
          filter: { _id: key },
          update: { $inc: inc, $min: lo, $max: hi, $setOnInsert: { bs: hint.size } },
          upsert: true,
        },
      });
    }
    await Promise.all(turning.map(([key, page]) => this.moveOldRanges(key, page)));
    await bulkWriteRetryingLostUpserts(this.heads, headOps);
    await bulkWriteRetryingLostUpserts(this.buckets, bucketOps);
  }

  /**
   * Moves the ranges of the pages before `upTo` (the page this write reaches) off a list's head,
   * read afresh (the hint carries no ranges), then notes in the hint how far the head has moved.
   * A move that lost a race leaves the head as it was and is tried again at the next write.
   */
  private async moveOldRanges(key: string, upTo: number): Promise<void> {
    const h = await this.heads.findOne({ _id: key }).lean<HeadRow>();
    if (!h) return;
    const ops = moveRanges(key, h, upTo);
    if (ops) {
      const res = await this.heads.bulkWrite(ops, { ordered: true });
      if (res.matchedCount + res.upsertedCount < ops.length) return;
    }
    const hint = this.seqHints.get(key);
    if (hint) hint.arch = Math.max(hint.arch, upTo, h.arch ?? 0);
  }

  /**
   * Takes one entry out (a deleted post leaves its lists): the buckets whose range holds `at`
   * are searched and the exact stored element pulled (FerretDB ignores partial `$pull`
   * conditions); the counters move only when something was removed.
   */
  async remove(key: string, id: string, at: Date, tags: string[] = []): Promise<boolean> {
    await this.settle([key]);
    const t = at.getTime();
    let removed = false;
    for (const r of await this.bucketsHolding(key, t)) {
      const b = await this.buckets.findOne({ _id: bucketId(key, r.n) }).lean<BucketRow>();
      for (const el of (b?.items ?? []).filter((raw) => unpackEntry(raw)?.id === id)) {
        const res = await this.buckets.updateOne({ _id: bucketId(key, r.n) }, { $pull: { items: el } });
        removed ||= res.modifiedCount === 1;
      }
    }
    if (removed) await this.uncount(key, tags);
    return removed;
  }

  /** Whether the list holds this entry (the buckets whose range holds `at` are read). */
  async holds(key: string, id: string, at: Date): Promise<boolean> {
    await this.settle([key]);
    for (const r of await this.bucketsHolding(key, at.getTime()))
      if ((await this.bucket(r.key, r.n)).some((e) => e.id === id)) return true;
    return false;
  }

  /** Moves the live counters after an entry stopped counting (deleted, moved out). */
  async uncount(key: string, tags: string[] = [], by = 1): Promise<void> {
    await this.settle([key]);
    const inc: Record<string, number> = { count: -by };
    for (const t of tags) inc[`tags.${t}`] = -by;
    await this.heads.updateOne({ _id: key }, { $inc: inc });
  }

  /**
   * Moves tag counters of entries that stay listed but changed state (a notification read or
   * marked unread): `{ tag: +1 | -1 }`. The live count does not move.
   */
  async retag(key: string, delta: Record<string, number>): Promise<void> {
    const inc = Object.fromEntries(Object.entries(delta).map(([t, by]) => [`tags.${t}`, by]));
    if (Object.keys(inc).length)
      await this.heads.updateOne(
        { _id: key },
        { $inc: inc, $setOnInsert: { bs: LIST_BUCKET_SIZE } },
        { upsert: true },
      );
  }

  async head(key: string): Promise<ListHead> {
    await this.settle([key]);
    const h = await this.heads.findOne({ _id: key }, { count: 1, tags: 1 }).lean<HeadRow>();
    return headOf(h);
  }

  async drop(key: string): Promise<void> {
    await this.settle([key]);
    const h = await this.heads.findOne({ _id: key }).lean<HeadRow>();
    const moved = Array.from({ length: h?.arch ?? 0 }, (_, p) => p);
    const pages = await Promise.all(
      moved.map((p) => this.heads.findOne({ _id: pageId(key, p) }).lean<PageRow>()),
    );
    for (const n of allBucketNumbers(h, pages)) await this.buckets.deleteOne({ _id: bucketId(key, n) });
    for (const p of moved) await this.heads.deleteOne({ _id: pageId(key, p) });
    await this.heads.deleteOne({ _id: indexId(key) });
    await this.heads.deleteOne({ _id: key });
    this.seqHints.delete(key);
  }

  /**
   * Entries of the lists merged newest first (cursor.ts's order: time, then id), strictly after
   * the place `before` when given. The same id in two lists (or appended twice) comes once.
   * Iterate and stop when the page is full.
   */
  async *newest(keys: string[], opts: { before?: Place } = {}): AsyncGenerator<ListEntry> {
    yield* (await this.open(keys, opts)).entries;
  }

  /**
   * A list's entries oldest first (a thread page): buckets visited oldest range first, so a page
   * near the start reads a bucket or two whatever the list's length. An id appended twice comes
   * once, at its oldest place.
   */
  async *oldest(key: string): AsyncGenerator<ListEntry> {
    await this.settle([key]);
    const h = await this.heads.findOne({ _id: key }).lean<HeadRow>();
    yield* this.walk(sourcesOf(key, h).sort(OLDEST.sources), undefined, undefined, OLDEST);
  }

  /**
   * Opens lists for a page: each head read once (its counters for the page's total and its
   * bucket ranges), and the newest bucket's read started at once, so a caller can do other reads
   * (the viewer, the circle) while it lands. `entries` yields as `newest` does.
   */
  async open(keys: string[], opts: { before?: Place } = {}): Promise<OpenedLists> {
    const { before } = opts;
    await this.settle(keys);
    const rows = await Promise.all(keys.map((key) => this.heads.findOne({ _id: key }).lean<HeadRow>()));
    const sources = keys
      .flatMap((key, i) => sourcesOf(key, rows[i]))
      .filter((r) => !before || mayHoldOlder(r.lo, before))
      .sort(NEWEST.sources);
    const first = sources[0]?.kind === 'bucket' ? this.prefetch(sources[0]) : undefined;
    return { heads: rows.map(headOf), entries: this.walk(sources, before, first, NEWEST) };
  }

  /** A bucket's read started ahead (read later, or never when the caller fails first). */
  private prefetch(source: BucketSource): { source: Source; items: Promise<ListEntry[]> } {
    const items = this.bucket(source.key, source.n);
    items.catch(() => undefined);
    return { source, items };
  }

  /**
   * Sources are visited in the order's source order, entries yielded in its entry order; with
   * `before` (newest walks), only entries strictly after that place, and only sources that may
   * hold one (a source whose oldest entry shares the place's millisecond may: cursor.ts).
   */
  private async *walk(
    sources: Source[],
    before: Place | undefined,
    ahead: { source: Source; items: Promise<ListEntry[]> } | undefined,
    order: Order,
  ): AsyncGenerator<ListEntry> {
    const pending: ListEntry[] = [];
    const seen = new Set<string>();
    for (;;) {
      // Visit sources while one could still hold an entry that comes before the first pending.
      while (sources.length && (!pending.length || order.mayPrecede(sources[0]!, pending[0]!))) {
        const s = sources.shift()!;
        if (s.kind !== 'bucket') {
          sources.push(...(await this.expand(s)).filter((r) => !before || mayHoldOlder(r.lo, before)));
          sources.sort(order.sources);
          continue;
        }
        const items = await (ahead?.source === s ? ahead.items : this.bucket(s.key, s.n));
        const next = sources[0];
        ahead = next?.kind === 'bucket' ? this.prefetch(next) : undefined;
        for (const e of items) if (!before || isOlder(e, before)) pending.push(e);
        pending.sort(order.entries);
      }
      const e = pending.shift();
      if (!e) return;
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      yield e;
    }
  }

  /** What a moved page or the index names: bucket ranges, or page ranges. */
  private async expand(s: Exclude<Source, BucketSource>): Promise<Source[]> {
    if (s.kind === 'page')
      return sourcesOfPage(s.key, await this.heads.findOne({ _id: pageId(s.key, s.p) }).lean<PageRow>());
    return sourcesOfIndex(s.key, await this.heads.findOne({ _id: indexId(s.key) }).lean<IndexRow>());
  }

  /** The buckets whose recorded range holds `t` (the index and moved pages read when theirs does). */
  private async bucketsHolding(key: string, t: number): Promise<BucketSource[]> {
    const holds = (r: Source) => r.lo <= t && r.hi >= t;
    const h = await this.heads.findOne({ _id: key }).lean<HeadRow>();
    const out: BucketSource[] = [];
    const todo = sourcesOf(key, h).filter(holds);
    for (let s = todo.shift(); s; s = todo.shift()) {
      if (s.kind === 'bucket') out.push(s);
      else todo.push(...(await this.expand(s)).filter(holds));
    }
    return out;
  }

  private async bucket(key: string, n: number): Promise<ListEntry[]> {
    const b = await this.buckets.findOne({ _id: bucketId(key, n) }).lean<BucketRow>();
    return (b?.items ?? []).map(unpackEntry).filter((e): e is ListEntry => e !== undefined);
  }
}
