/**
 * A list of posts from a spec 1.5 collection (`page`, `limit`, `totalItems`), loaded a page at a
 * time: the next page comes when the end of the list scrolls into view, or from the "Load more
 * posts" button for keyboards and screen readers. The public and server timelines, profiles and
 * group posts use it; circle timelines page by cursor instead (`timeline.tsx`).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import type { Collection, Post } from '../api/types';
import { PostCard } from './post-card';
import { Empty, ErrorNote, Loading } from './states';
import { useT } from '../i18n/use-t';

export const POSTS_PAGE = 20;

/** The next page number, or undefined after the last page (an empty page ends it too). */
export function nextPageOf(
  last: Collection<unknown>,
  pageNo: number,
  limit = POSTS_PAGE,
): number | undefined {
  if (!last.orderedItems.length) return undefined;
  return pageNo * limit < last.totalItems ? pageNo + 1 : undefined;
}

/** Calls `onVisible` when the returned element scrolls into view (while `active`). */
export function useEndOfList(active: boolean, onVisible: () => unknown) {
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !active || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void onVisible();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [active, onVisible]);
  return sentinel;
}

export function PostList({
  queryKey,
  path,
  params = {},
  empty,
  label,
}: {
  queryKey: readonly unknown[];
  /** The collection's path (from `pathOf`). */
  path: string;
  /** More query parameters (`to`, `type`, …). */
  params?: Record<string, string>;
  empty: ReactNode;
  /** The list's accessible name. */
  label: string;
}) {
  const { t } = useT();
  const feed = useInfiniteQuery({
    queryKey: [...queryKey, 'paged'],
    queryFn: ({ pageParam }) =>
      api.get<Collection<Post>>(path, { ...params, page: pageParam, limit: POSTS_PAGE }),
    initialPageParam: 1,
    getNextPageParam: (last, _all, pageNo) => nextPageOf(last, pageNo),
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  const sentinel = useEndOfList(hasNextPage && !isFetchingNextPage, fetchNextPage);
  if (!feed.data) {
    if (feed.error) return <ErrorNote error={feed.error} retry={() => void feed.refetch()} />;
    return <Loading label={t('lists.loadingPosts')} />;
  }
  // A post can move between pages while they load (a new post shifts the offsets): show it once.
  const seen = new Set<string>();
  const posts = feed.data.pages
    .flatMap((p) => p.orderedItems)
    .filter((p) => !seen.has(p.id) && seen.add(p.id));
  if (!posts.length) return <Empty>{empty}</Empty>;
  return (
    <section aria-label={label}>
      <ol className="feed">
        {posts.map((p) => (
          <li key={p.id}>
            <PostCard post={p} />
          </li>
        ))}
      </ol>
      <div ref={sentinel} />
      {hasNextPage ? (
        <button type="button" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? t('common.loading') : t('lists.loadMore')}
        </button>
      ) : (
        <p className="state">{t('lists.allShown')}</p>
      )}
      <ErrorNote error={feed.isFetchNextPageError ? feed.error : null} retry={() => void fetchNextPage()} />
    </section>
  );
}
