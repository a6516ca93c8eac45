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

type Feed = 'following' | 'server' | 'public';

/** The public (`@public`) or this server's (`@<domain>`) posts, newest first (GET /posts?to=). */
function TierPosts({ to }: { to: 'public' | 'server' }) {
  return (
    <PostList
      queryKey={['posts', to]}
      path={pathOf('posts')}
      params={{ to }}
      label={to === 'public' ? 'Public posts' : 'Posts on this server'}
      empty={
        to === 'public' ? 'Nothing has been posted publicly yet.' : 'Nobody has posted to this server yet.'
      }
    />
  );
}

/** What an empty home offers instead of a dead end: Discover's shelves and the other timelines. */
function Suggestions() {
  return (
    <section className="suggestions" aria-labelledby="suggest-h" data-testid="home-suggestions">
      <h2 id="suggest-h">Nothing from people you follow yet</h2>
      <p>
        Follow people and join groups to fill your home. Start with the{' '}
        <Link to="/" search={{ feed: 'server' }}>
          posts on this server
        </Link>
        , the{' '}
        <Link to="/" search={{ feed: 'public' }}>
          public posts
        </Link>{' '}
        or the <Link to="/groups">groups</Link>, or with these picks:
      </p>
      <Shelves Heading="h3" empty="Nothing is featured on Discover yet." />
    </section>
  );
}

const FEEDS: Array<[Feed, string]> = [
  ['following', 'Following'],
  ['server', 'This server'],
  ['public', 'Public'],
];

function FeedTabs({ feed }: { feed: Feed }) {
  return (
    <nav className="tabs" aria-label="Timelines">
      {FEEDS.map(([f, label]) => (
        <Link
          key={f}
          to="/"
          search={f === 'following' ? {} : { feed: f }}
          aria-current={f === feed ? 'page' : undefined}
          className={f === feed ? 'button' : 'button secondary'}
        >
          {label}
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
  const me = useMe();
  const config = useConfig();
  const feed: Feed = useSearch({ from: '/' }).feed ?? 'following';
  if (!me.data)
    return (
      <>
        <section className="card hero">
          <h1>Welcome to {config.data?.siteTitle ?? 'Agora'}</h1>
          <p>A social server for the people you choose: circles, groups and pages.</p>
          <p>
            <Link to="/signup" search={{ invite: '' }} className="button">
              Sign up
            </Link>{' '}
            <Link to="/login" search={{ next: '/' }} className="button secondary">
              Log in
            </Link>
          </p>
        </section>
        <h2>Recent public posts</h2>
        <TierPosts to="public" />
      </>
    );
  const following = me.data.following;
  return (
    <>
      <h1>Home</h1>
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
