/**
 * Home. Signed in: three timelines, chosen in the address (`/?feed=server`, `/?feed=public`):
 * the Following circle's with compose (suggestions from Discover while it is empty), this
 * server's posts and the public posts. Signed out: a welcome and the public posts.
 */
import { Link, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { useConfig, useMe } from '../api/hooks';
import type { Circle } from '../api/types';
import { Compose } from '../ui/compose';
import { PostList } from '../ui/post-list';
import { QueryState } from '../ui/states';
import { Timeline } from '../ui/timeline';
import { Shelves } from './discover';
import { useT } from '../i18n/use-t';
import { Rich } from '../i18n/rich';

type Feed = 'following' | 'server' | 'public';

/** The public (`@public`) or this server's (`@<domain>`) posts, newest first (GET /posts?to=). */
function TierPosts({ to }: { to: 'public' | 'server' }) {
  const { t } = useT();
  return (
    <PostList
      queryKey={['posts', to]}
      path={pathOf('posts')}
      params={{ to }}
      label={to === 'public' ? t('home.publicPosts') : t('home.serverPosts')}
      empty={to === 'public' ? t('home.noPublic') : t('home.noServer')}
    />
  );
}

/** What an empty home offers instead of a dead end: Discover's shelves and the other timelines. */
function Suggestions() {
  const { t } = useT();
  return (
    <section className="suggestions" aria-labelledby="suggest-h" data-testid="home-suggestions">
      <h2 id="suggest-h">{t('home.suggestTitle')}</h2>
      <p>
        <Rich
          text={t('home.suggestText')}
          parts={[
            <Link to="/" search={{ feed: 'server' }} />,
            <Link to="/" search={{ feed: 'public' }} />,
            <Link to="/groups" />,
          ]}
        />
      </p>
      <Shelves Heading="h3" empty={t('home.noPicks')} />
    </section>
  );
}

/** Each timeline and the catalogue key of its tab. */
const FEEDS: Array<[Feed, string]> = [
  ['following', 'home.following'],
  ['server', 'common.thisServer'],
  ['public', 'common.public'],
];

function FeedTabs({ feed }: { feed: Feed }) {
  const { t } = useT();
  return (
    <nav className="tabs" aria-label={t('home.timelines')}>
      {FEEDS.map(([f, label]) => (
        <Link
          key={f}
          to="/"
          search={f === 'following' ? {} : { feed: f }}
          aria-current={f === feed ? 'page' : undefined}
          className={f === feed ? 'button' : 'button secondary'}
        >
          {t(label)}
        </Link>
      ))}
    </nav>
  );
}

function Following({ circleId }: { circleId: string }) {
  const circle = useQuery({
    queryKey: ['circle', circleId],
    queryFn: async () => (await api.get<{ item: Circle }>(pathOf('circle', { id: circleId }))).item,
  });
  return (
    <QueryState query={circle}>
      {(c) => (
        <Timeline
          circleId={c.id}
          lastSeenAt={c.lastSeenAt ?? null}
          isOwner={c.isOwner}
          empty={<Suggestions />}
        />
      )}
    </QueryState>
  );
}

export function HomePage() {
  const { t } = useT();
  const me = useMe();
  const config = useConfig();
  const feed: Feed = useSearch({ from: '/' }).feed ?? 'following';
  if (!me.data)
    return (
      <>
        <section className="card hero">
          <h1>{t('home.welcome', { site: config.data?.siteTitle ?? 'Agora' })}</h1>
          <p>{t('home.tagline')}</p>
          <p>
            <Link to="/signup" search={{ invite: '' }} className="button">
              {t('layout.signUp')}
            </Link>{' '}
            <Link to="/login" search={{ next: '/' }} className="button secondary">
              {t('layout.logIn')}
            </Link>
          </p>
        </section>
        <h2>{t('home.recentPublic')}</h2>
        <TierPosts to="public" />
      </>
    );
  const following = me.data.following;
  return (
    <>
      <h1>{t('home.title')}</h1>
      <FeedTabs feed={feed} />
      {feed === 'following' ? (
        <>
          <Compose />
          {following ? <Following circleId={following} /> : null}
        </>
      ) : (
        <TierPosts to={feed} />
      )}
    </>
  );
}
