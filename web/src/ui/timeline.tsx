/**
 * A circle's timeline: cursor pages (`nextCursor`) loaded as the end of the list scrolls into
 * view (or by the button, for keyboards and screen readers), and the unread marker: posts newer
 * than the circle's `lastSeenAt` are marked new, a divider shows where the seen ones begin, and
 * the owner's high-water mark moves to the newest post shown.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Post, Timeline as TimelinePage } from '../api/types';
import { PostCard } from './post-card';
import { Empty, ErrorNote, Loading } from './states';
import { useLivePosts } from './live';
import { useT } from '../i18n/use-t';

const PAGE = 20;

export function Timeline({
  circleId,
  lastSeenAt,
  isOwner,
  empty,
}: {
  circleId: string;
  lastSeenAt?: string | null;
  isOwner?: boolean;
  /** What an empty timeline says. */
  empty?: ReactNode;
}) {
  // The mark as it was when the screen opened: marking posts seen must not hide the divider.
  // Never seen (no mark yet) means everything is new.
  const { t } = useT();
  const [seenMark] = useState(() => (lastSeenAt ? Date.parse(lastSeenAt) : 0));
  const feed = useInfiniteQuery({
    queryKey: ['timeline', circleId],
    queryFn: ({ pageParam }) =>
      api.get<TimelinePage<Post>>(pathOf('circlePosts', { id: circleId }), {
        limit: PAGE,
        before: pageParam,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
  const seen = useMutation({
    mutationFn: (at: string) => api.patch(pathOf('circleSeen', { id: circleId }), { lastSeenAt: at }),
  });
  const posts = feed.data?.pages.flatMap((p) => p.orderedItems) ?? [];
  const newest = posts[0]?.published ?? null;
  const { mutate: markSeen } = seen;
  useEffect(() => {
    if (isOwner && newest && Date.parse(newest) > seenMark) markSeen(newest);
  }, [isOwner, newest, seenMark, markSeen]);

  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  // Posts the live stream announced that the list does not show yet: shown when asked for, so
  // the list never moves under the reader's eyes.
  const live = useLivePosts(circleId);
  const waiting = live.fresh.filter((id) => !posts.some((p) => p.id === id)).length;
  const banner = (
    <div aria-live="polite">
      {waiting ? (
        <button
          type="button"
          className="new-posts"
          data-testid="new-posts"
          onClick={() => void feed.refetch().then(live.clear)}
        >
          {t('lists.newPosts', { count: waiting })}
        </button>
      ) : null}
    </div>
  );

  if (feed.error) return <ErrorNote error={feed.error} />;
  if (feed.isPending) return <Loading label={t('lists.loadingTimeline')} />;
  // Words go in the empty state's paragraph; anything more (suggestions) is shown as it is.
  if (!posts.length)
    return (
      <>
        {banner}
        {empty === undefined ? (
          <Empty>{t('lists.noPosts')}</Empty>
        ) : typeof empty === 'string' ? (
          <Empty>{empty}</Empty>
        ) : (
          empty
        )}
      </>
    );
  const isNew = (p: Post) => p.published !== null && Date.parse(p.published) > seenMark;
  const unread = posts.filter(isNew).length;
  return (
    <section aria-label={t('lists.timeline')} className="timeline">
      {banner}
      <p className="state" data-testid="unread-count" role="status">
        {unread ? t('lists.newSince', { count: unread }) : t('lists.nothingNew')}
      </p>
      <ol className="feed">
        {posts.map((p, i) => (
          <li key={p.id} className={isNew(p) ? 'new' : undefined}>
            {i > 0 && isNew(posts[i - 1]!) && !isNew(p) ? (
              <p className="divider" role="separator" data-testid="seen-divider">
                {t('lists.seenBefore')}
              </p>
            ) : null}
            {isNew(p) ? <span className="new-tag">{t('lists.new')}</span> : null}
            <PostCard post={p} />
          </li>
        ))}
      </ol>
      <div ref={sentinel} />
      {hasNextPage ? (
        <button type="button" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? t('common.loading') : t('lists.loadOlder')}
        </button>
      ) : (
        <p className="state">{t('lists.caughtUp')}</p>
      )}
    </section>
  );
}
