/** Home: the Following circle's timeline for a member; public posts and a welcome otherwise. */
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { useConfig, useMe } from '../api/hooks';
import type { Circle, Collection, Post } from '../api/types';
import { Compose } from '../ui/compose';
import { PostCard } from '../ui/post-card';
import { QueryState } from '../ui/states';
import { Timeline } from '../ui/timeline';

function PublicPosts() {
  const posts = useQuery({
    queryKey: ['posts', 'public'],
    queryFn: () => api.get<Collection<Post>>(pathOf('posts'), { limit: 20 }),
  });
  return (
    <QueryState
      query={posts}
      isEmpty={(d) => !d.orderedItems.length}
      empty="Nothing has been posted publicly yet."
    >
      {(d) => (
        <ol className="feed">
          {d.orderedItems.map((p) => (
            <li key={p.id}>
              <PostCard post={p} />
            </li>
          ))}
        </ol>
      )}
    </QueryState>
  );
}

export function HomePage() {
  const me = useMe();
  const config = useConfig();
  const following = me.data?.following;
  const circle = useQuery({
    queryKey: ['circle', following],
    queryFn: async () => (await api.get<{ item: Circle }>(pathOf('circle', { id: following! }))).item,
    enabled: Boolean(following),
  });
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
        <PublicPosts />
      </>
    );
  return (
    <>
      <h1>Home</h1>
      <Compose />
      {following ? (
        <QueryState query={circle}>
          {(c) => <Timeline circleId={c.id} lastSeenAt={c.lastSeenAt ?? null} isOwner={c.isOwner} />}
        </QueryState>
      ) : null}
    </>
  );
}
