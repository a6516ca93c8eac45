/**
 * Where a list's entries are (ADR 0005, ADR 0011): bucket `n` holds the entries appended at
 * positions [n × size, (n + 1) × size), and the head records each bucket's time range so readers
 * visit buckets newest first. The head keeps the ranges of the newest range page (RANGE_PAGE
 * buckets) only; older pages' ranges move to a page document of their own, each page's range to
 * the list's index document, and the head keeps the index's range. So a head stays a few dozen
 * dates long whatever the list's length, and an append, which FerretDB pays by the size of the
 * documents it rewrites, stays as cheap at 100,000 entries as at 1,000.
 */

/** Entries per bucket of lists created since heads record their size (`bs`). */
export const LIST_BUCKET_SIZE = 50;
/** Entries per bucket of lists whose head records no size (created before it did). */
export const LEGACY_BUCKET_SIZE = 200;
/** Buckets per range page. */
export const RANGE_PAGE = 32;

type Dates = Record<string, Date | string>;

export type HeadRow = {
  seq?: number;
  count?: number;
  tags?: Record<string, number>;
  /** Bucket size. */
  bs?: number;
  /** Range pages below this number have moved to page documents. */
  arch?: number;
  /** Per bucket number (newest page): the oldest and newest `at` it holds. */
  lo?: Dates;
  hi?: Dates;
  /**
   * Per moved range page: the oldest and newest `at` its buckets hold. Heads moved before the
   * index document kept these here; the next move takes them to the index.
   */
  plo?: Dates;
  phi?: Dates;
  /** The oldest and newest `at` of every page the index document (`indexId`) names. */
  ilo?: Date | string;
  ihi?: Date | string;
};

export type PageRow = { lo?: Dates; hi?: Dates };

/** A list's index document: the range of each moved page (written only when pages move). */
export type IndexRow = { plo?: Dates; phi?: Dates };

/** Something a reader visits newest first: a bucket, or a moved page of bucket ranges. */
export type Source =
  | { kind: 'bucket'; key: string; n: number; lo: number; hi: number }
  | { kind: 'page'; key: string; p: number; lo: number; hi: number }
  | { kind: 'index'; key: string; lo: number; hi: number };

export type BucketSource = Extract<Source, { kind: 'bucket' }>;

export const bucketId = (key: string, n: number): string => `${key}#${n}`;
export const pageId = (key: string, p: number): string => `${key}~${p}`;
export const indexId = (key: string): string => `${key}~i`;
export const pageOf = (n: number): number => Math.floor(n / RANGE_PAGE);

/** A list's bucket size: what its head records, the legacy size for older heads. */
export function bucketSize(h: HeadRow | null | undefined): number {
  return h ? (h.bs ?? LEGACY_BUCKET_SIZE) : LIST_BUCKET_SIZE;
}

/**
 * What a reader of this head visits: every bucket the sequence covers past the moved pages, every
 * bucket whose range the head records (an entry placed from a stale sequence hint lands in a
 * bucket its range then names), and every moved page. A bucket with no range yet is being
 * appended to right now: it is read first.
 */
export function sourcesOf(key: string, h: HeadRow | null | undefined): Source[] {
  if (!h) return [];
  const size = bucketSize(h);
  const lo = h.lo ?? {};
  const hi = h.hi ?? {};
  const ns = new Set<number>();
  if (h.seq) for (let n = (h.arch ?? 0) * RANGE_PAGE; n <= Math.floor((h.seq - 1) / size); n++) ns.add(n);
  for (const n of numbered(hi)) ns.add(n);
  const out: Source[] = [...ns].map((n) => ({
    kind: 'bucket',
    key,
    n,
    lo: time(lo[n], -Infinity),
    hi: time(hi[n], Infinity),
  }));
  out.push(...sourcesOfIndex(key, h));
  if (h.ihi) out.push({ kind: 'index', key, lo: time(h.ilo, -Infinity), hi: time(h.ihi, Infinity) });
  return out;
}

/** The moved pages an index document (or a head moved before there was one) names. */
export function sourcesOfIndex(key: string, row: IndexRow | null | undefined): Source[] {
  return numbered(row?.phi ?? {}).map((p) => ({
    kind: 'page',
    key,
    p,
    lo: time(row?.plo?.[p], -Infinity),
    hi: time(row?.phi?.[p], Infinity),
  }));
}

/** The bucket ranges a moved page holds. */
export function sourcesOfPage(key: string, row: PageRow | null | undefined): BucketSource[] {
  const lo = row?.lo ?? {};
  const hi = row?.hi ?? {};
  return numbered(hi).map((n) => ({
    kind: 'bucket',
    key,
    n,
    lo: time(lo[n], -Infinity),
    hi: time(hi[n], Infinity),
  }));
}

/** Every bucket number a head and its moved pages name (to drop a list). */
export function allBucketNumbers(h: HeadRow | null | undefined, pages: Array<PageRow | null>): number[] {
  const ns = new Set<number>();
  if (h?.seq) for (let n = 0; n <= Math.floor((h.seq - 1) / bucketSize(h)); n++) ns.add(n);
  for (const n of numbered(h?.hi ?? {})) ns.add(n);
  for (const pg of pages) for (const n of numbered(pg?.hi ?? {})) ns.add(n);
  return [...ns].sort((a, b) => a - b);
}

type BulkOp = {
  updateOne: { filter: Record<string, unknown>; update: Record<string, unknown>; upsert: boolean };
};

/**
 * Moving the ranges of every page before `upTo` off the head, as read in `h`: one upsert per
 * page document, one of the index document (each moved page's range; and those a head moved
 * before the index existed still holds), then one head update that applies only if the head
 * still holds exactly the ranges read (an append from another process that widened one of them
 * meanwhile makes it a no-op, and the move is tried again later). The head keeps only the range
 * of the whole index (`ilo`/`ihi`), so it stays the same size however long the list grows: a
 * head is rewritten by every append, and FerretDB pays an update by its elements (ADR 0011 item
 * 14). Undefined when nothing is to move.
 */
export function moveRanges(key: string, h: HeadRow, upTo: number): BulkOp[] | undefined {
  if ((h.arch ?? 0) >= upTo) return undefined;
  const lo = h.lo ?? {};
  const hi = h.hi ?? {};
  const moving = numbered(hi).filter((n) => pageOf(n) < upTo);
  const byPage = new Map<number, number[]>();
  for (const n of moving) byPage.set(pageOf(n), [...(byPage.get(pageOf(n)) ?? []), n]);
  const ops: BulkOp[] = [];
  const filter: Record<string, unknown> = { _id: key, arch: h.arch ?? { $exists: false } };
  const unset: Record<string, ''> = {};
  const pmin: Record<string, Date> = {};
  const pmax: Record<string, Date> = {};
  for (const [p, ns] of byPage) {
    const min: Record<string, Date> = {};
    const max: Record<string, Date> = {};
    for (const n of ns) {
      filter[`hi.${n}`] = new Date(hi[n]!);
      unset[`hi.${n}`] = '';
      max[`hi.${n}`] = new Date(hi[n]!);
      if (lo[n] !== undefined) {
        filter[`lo.${n}`] = new Date(lo[n]);
        unset[`lo.${n}`] = '';
        min[`lo.${n}`] = new Date(lo[n]);
      }
    }
    ops.push({
      updateOne: { filter: { _id: pageId(key, p) }, update: { $min: min, $max: max }, upsert: true },
    });
    const his = ns.map((n) => time(hi[n], -Infinity));
    const los = ns.map((n) => time(lo[n], Infinity));
    pmax[`phi.${p}`] = new Date(Math.max(...his));
    pmin[`plo.${p}`] = new Date(Math.min(...los, Math.max(...his)));
  }
  // Page ranges a head moved before the index existed go to the index too.
  for (const p of numbered(h.phi ?? {})) {
    pmax[`phi.${p}`] = new Date(h.phi![p]!);
    if (h.plo?.[p] !== undefined) pmin[`plo.${p}`] = new Date(h.plo[p]);
  }
  const head: Record<string, unknown> = { $set: { arch: upTo } };
  if (h.phi || h.plo) {
    unset.plo = '';
    unset.phi = '';
  }
  if (Object.keys(unset).length) head.$unset = unset;
  if (Object.keys(pmax).length) {
    ops.push({
      updateOne: { filter: { _id: indexId(key) }, update: { $min: pmin, $max: pmax }, upsert: true },
    });
    const highs = Object.values(pmax).map((d) => d.getTime());
    const lows = Object.values(pmin).map((d) => d.getTime());
    head.$max = { ihi: new Date(Math.max(...highs)) };
    head.$min = { ilo: new Date(Math.min(...lows, Math.max(...highs))) };
  }
  ops.push({ updateOne: { filter, update: head, upsert: false } });
  return ops;
}

function numbered(d: Record<string, unknown>): number[] {
  return Object.keys(d)
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

function time(d: Date | string | undefined, missing: number): number {
  return d ? new Date(d).getTime() : missing;
}
