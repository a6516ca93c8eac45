/** Collections of spec 1.5: the root form and the page form of an ordered collection. */
import type { Request } from 'express';

export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';

export interface Paging {
  page: number;
  limit: number;
  skip: number;
  /** Whether the client asked for an explicit page. */
  explicit: boolean;
}

export function parsePaging(
  query: Record<string, unknown>,
  opts: { defaultLimit?: number; maxLimit?: number } = {},
): Paging {
  const max = opts.maxLimit ?? 100;
  const def = opts.defaultLimit ?? 20;
  const rawPage = Number.parseInt(typeof query.page === 'string' ? query.page : '', 10);
  const rawLimit = Number.parseInt(typeof query.limit === 'string' ? query.limit : '', 10);
  const explicit = query.page !== undefined && Number.isFinite(rawPage);
  const page = Number.isFinite(rawPage) ? Math.max(1, rawPage) : 1;
  const limit = Math.min(max, Math.max(1, Number.isFinite(rawLimit) ? rawLimit : def));
  return { page, limit, skip: (page - 1) * limit, explicit };
}

function withPage(base: string, page: number, search: URLSearchParams): string {
  const q = new URLSearchParams(search);
  q.set('page', String(page));
  return `${base}?${q.toString()}`;
}

export interface CollectionInput<T> {
  /** Absolute URL of the collection, without query. */
  base: string;
  /** The request's query (kept on page links, except `page`). */
  search?: URLSearchParams;
  paging: Paging;
  total: number;
  items: T[];
}

export function orderedCollection<T>({
  base,
  search = new URLSearchParams(),
  paging,
  total,
  items,
}: CollectionInput<T>) {
  search.delete('page');
  const totalPages = Math.max(1, Math.ceil(total / paging.limit));
  const keep = search.toString();
  const baseWithQuery = keep ? `${base}?${keep}` : base;
  if (!paging.explicit || (totalPages === 1 && paging.page === 1)) {
    return {
      '@context': AS_CONTEXT,
      type: 'OrderedCollection' as const,
      id: baseWithQuery,
      totalItems: total,
      first: withPage(base, 1, search),
      last: withPage(base, totalPages, search),
      orderedItems: items,
    };
  }
  return {
    '@context': AS_CONTEXT,
    type: 'OrderedCollectionPage' as const,
    id: withPage(base, paging.page, search),
    partOf: baseWithQuery,
    orderedItems: items,
    totalPages,
    totalItems: total,
    currentPage: paging.page,
    ...(paging.page < totalPages ? { next: withPage(base, paging.page + 1, search) } : {}),
    ...(paging.page > 1 ? { prev: withPage(base, paging.page - 1, search) } : {}),
  };
}

/** The collection's absolute URL for this request. */
export function collectionBase(publicUrl: string, req: Request): string {
  return `${publicUrl}${req.baseUrl}${req.path === '/' ? '' : req.path}`;
}

/** The request's query string, kept on collection page links (`orderedCollection` drops `page`). */
export function searchOf(req: Request): URLSearchParams {
  return new URLSearchParams(req.url.split('?')[1] ?? '');
}

/** The spec 1.5 body of one page of the collection this request addresses. */
export function collectionFor<T>(publicUrl: string, req: Request, paging: Paging, total: number, items: T[]) {
  return orderedCollection({
    base: collectionBase(publicUrl, req),
    search: searchOf(req),
    paging,
    total,
    items,
  });
}

/** Copies a collection (or any body) into the handler's response through its `set`. */
export function setAll(set: (key: string, value: unknown) => void, body: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(body)) set(k, v);
}
