/** A person's profile: their posts, and follow / block / mute for a signed-in viewer. */
import { useParams } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { useMe, useOutbox } from '../api/hooks';
import type { Collection, Member, SessionUser, UserDetail } from '../api/types';
import { Avatar } from '../ui/post-card';
import { PostList } from '../ui/post-list';
import { Markdown } from '../ui/markdown';
import { ErrorNote, QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';

type Relation = 'following' | 'blocked' | 'muted';

/** Whether `userId` is in one of my relation circles (read from the circle's members). */
function useRelation(me: SessionUser | undefined, rel: Relation, userId: string) {
  const circleId = me?.[rel] ?? null;
  return useQuery({
    queryKey: ['relation', circleId],
    queryFn: () => api.get<Collection<Member>>(pathOf('circleMembers', { id: circleId! }), { limit: 100 }),
    enabled: Boolean(circleId) && me?.id !== userId,
    select: (d) => d.orderedItems.some((m) => m.id === userId),
  });
}

function Relations({ me, userId }: { me: SessionUser; userId: string }) {
  const { t } = useT();
  const qc = useQueryClient();
  const following = useRelation(me, 'following', userId);
  const blocked = useRelation(me, 'blocked', userId);
  const muted = useRelation(me, 'muted', userId);
  const act = useOutbox();
  const run = (type: string, field: 'object' | 'target') =>
    act.mutate(
      { type, [field]: userId },
      {
        onSuccess: () => {
          void qc.invalidateQueries({ queryKey: ['relation'] });
          void qc.invalidateQueries({ queryKey: ['timeline'] });
        },
      },
    );
  return (
    <div className="actions" role="group" aria-label={t('profile.relationship')}>
      <button
        type="button"
        disabled={act.isPending}
        onClick={() => run(following.data ? 'Unfollow' : 'Follow', 'object')}
      >
        {following.data ? t('profile.unfollow') : t('profile.follow')}
      </button>
      <button
        type="button"
        className="secondary"
        disabled={act.isPending}
        onClick={() => run(muted.data ? 'Unmute' : 'Mute', 'target')}
      >
        {muted.data ? t('profile.unmute') : t('profile.mute')}
      </button>
      <button
        type="button"
        className="danger"
        disabled={act.isPending}
        onClick={() => run(blocked.data ? 'Unblock' : 'Block', 'target')}
      >
        {blocked.data ? t('profile.unblock') : t('profile.block')}
      </button>
      <ErrorNote error={act.error} title={t('common.refused')} />
    </div>
  );
}

export function ProfilePage() {
  const { t } = useT();
  const { id } = useParams({ from: '/users/$id' });
  const me = useMe();
  const user = useQuery({
    queryKey: ['user', id],
    queryFn: async () => (await api.get<{ item: UserDetail }>(pathOf('user', { id }))).item,
  });
  return (
    <QueryState query={user}>
      {(u) => (
        <>
          <section className="card profile">
            <Avatar src={u.profile?.icon} name={u.profile?.name ?? u.username} />
            <div>
              <h1>{u.profile?.name ?? u.username}</h1>
              <p className="meta">
                {u.id} · {t('profile.postCount', { count: u.postCount ?? 0 })}
              </p>
              {u.profile?.description ? <Markdown source={u.profile.description} /> : null}
              {me.data && me.data.id !== u.id ? <Relations me={me.data} userId={u.id} /> : null}
            </div>
          </section>
          <h2>{t('profile.posts')}</h2>
          <PostList
            queryKey={['posts', 'user', u.id]}
            path={pathOf('userPosts', { id: u.id })}
            label={t('profile.postsBy', { name: u.profile?.name ?? u.username })}
            empty={t('profile.noPosts')}
          />
        </>
      )}
    </QueryState>
  );
}
