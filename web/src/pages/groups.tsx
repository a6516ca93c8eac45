/**
 * Groups: browse and create; one group: join/leave, approve requests, members, and the group's
 * posts, in pages, for whoever may see the group.
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { useConfig, useMe, useOutbox } from '../api/hooks';
import type { Collection, Group, Member } from '../api/types';
import { Compose } from '../ui/compose';
import { audienceLabel, memberCount } from '../ui/format';
import { PostList } from '../ui/post-list';
import { ErrorNote, QueryState } from '../ui/states';
import { Markdown } from '../ui/markdown';
import { useT } from '../i18n/use-t';

function NewGroup() {
  const { t } = useT();
  const navigate = useNavigate();
  const config = useConfig();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [rsvpPolicy, setPolicy] = useState('open');
  const [to, setTo] = useState('@public');
  const create = useOutbox<Group>([['groups']]);
  return (
    <details className="card">
      <summary>{t('groups.newGroup')}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { type: 'Create', objectType: 'Group', to, object: { name, description, rsvpPolicy } },
            {
              onSuccess: (out) =>
                void navigate({ to: '/groups/$id', params: { id: out.createdId ?? out.result.id } }),
            },
          );
        }}
      >
        <label>
          {t('common.name')}
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t('common.description')}
          <textarea
            rows={2}
            maxLength={5000}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <label>
          {t('groups.whoMayJoin')}
          <select value={rsvpPolicy} onChange={(e) => setPolicy(e.target.value)}>
            <option value="open">{t('groups.open')}</option>
            <option value="approvalOnly">{t('groups.approvalOnly')}</option>
            <option value="serverOpen">{t('groups.serverOpen')}</option>
            <option value="serverApproval">{t('groups.serverApproval')}</option>
            <option value="inviteOnly">{t('groups.inviteOnly')}</option>
          </select>
        </label>
        <label>
          {t('groups.whoCanSee')}
          <select value={to} onChange={(e) => setTo(e.target.value)}>
            <option value="@public">{t('common.public')}</option>
            {config.data ? <option value={`@${config.data.domain}`}>{t('common.thisServer')}</option> : null}
          </select>
        </label>
        <ErrorNote error={create.error} title={t('common.notCreated')} />
        <button type="submit" disabled={create.isPending}>
          {t('groups.create')}
        </button>
      </form>
    </details>
  );
}

export function GroupsPage() {
  const { t } = useT();
  const me = useMe();
  const groups = useQuery({
    queryKey: ['groups'],
    queryFn: () => api.get<Collection<Group>>(pathOf('groups'), { limit: 50 }),
  });
  return (
    <>
      <h1>{t('groups.title')}</h1>
      {me.data ? <NewGroup /> : null}
      <QueryState query={groups} isEmpty={(d) => !d.orderedItems.length} empty={t('groups.none')}>
        {(d) => (
          <ul className="list">
            {d.orderedItems.map((g) => (
              <li key={g.id}>
                <Link to="/groups/$id" params={{ id: g.id }}>
                  {g.name}
                </Link>{' '}
                <span className="meta">{memberCount(g.memberCount)}</span>
                {g.description ? <Markdown source={g.description} /> : null}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}

function Pending({ group, refresh }: { group: Group; refresh: () => Promise<unknown> }) {
  const { t } = useT();
  const pending = useQuery({
    queryKey: ['group', group.id, 'pending'],
    queryFn: () => api.get<Collection<Member>>(pathOf('groupPending', { id: group.id }), { limit: 100 }),
  });
  const act = useOutbox();
  return (
    <section className="card" aria-labelledby="pending-h">
      <h2 id="pending-h">{t('groups.requests')}</h2>
      <ErrorNote error={act.error} title={t('common.refused')} />
      <QueryState query={pending} isEmpty={(d) => !d.orderedItems.length} empty={t('groups.noRequests')}>
        {(d) => (
          <ul className="list">
            {d.orderedItems.map((m) => (
              <li key={m.id}>
                {m.name ?? m.id}{' '}
                <button
                  type="button"
                  onClick={() =>
                    act.mutate(
                      { type: 'Add', to: group.id, object: m.id },
                      { onSuccess: () => void refresh() },
                    )
                  }
                >
                  {t('groups.approve', { name: m.name ?? m.id })}
                </button>{' '}
                <button
                  type="button"
                  className="secondary"
                  onClick={() =>
                    act.mutate(
                      { type: 'Remove', to: group.id, object: m.id },
                      { onSuccess: () => void refresh() },
                    )
                  }
                >
                  {t('groups.decline')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

export function GroupPage() {
  const { t } = useT();
  const { id } = useParams({ from: '/groups/$id' });
  const me = useMe();
  const config = useConfig();
  const qc = useQueryClient();
  const group = useQuery({
    queryKey: ['group', id],
    queryFn: async () => (await api.get<{ item: Group }>(pathOf('group', { id }))).item,
  });
  const isMember = Boolean(group.data?.isMember);
  const members = useQuery({
    queryKey: ['group', id, 'members'],
    queryFn: () => api.get<Collection<Member>>(pathOf('groupMembers', { id }), { limit: 100 }),
    enabled: group.isSuccess,
    retry: false,
  });
  const act = useOutbox();
  const refresh = () => qc.invalidateQueries({ queryKey: ['group', id] });
  return (
    <QueryState query={group}>
      {(g) => (
        <>
          <h1>{g.name}</h1>
          <p className="meta">
            {audienceLabel(g.to, config.data?.domain)} · {memberCount(g.memberCount)}
          </p>
          {g.description ? <Markdown source={g.description} /> : null}
          {me.data ? (
            <div className="actions">
              {g.isMember ? (
                <button
                  type="button"
                  className="secondary"
                  onClick={() =>
                    act.mutate({ type: 'Leave', target: g.id }, { onSuccess: () => void refresh() })
                  }
                >
                  {t('groups.leave')}
                </button>
              ) : g.isPending ? (
                <p role="status">{t('groups.waiting')}</p>
              ) : (
                <button
                  type="button"
                  onClick={() =>
                    act.mutate({ type: 'Join', target: g.id }, { onSuccess: () => void refresh() })
                  }
                >
                  {t('groups.join')}
                </button>
              )}
              <ErrorNote error={act.error} title={t('common.refused')} />
            </div>
          ) : null}
          {g.isAdmin ? <Pending group={g} refresh={refresh} /> : null}
          {isMember ? <Compose fixedTo={g.id} /> : null}
          <div className="two-col">
            <section aria-labelledby="gposts-h">
              <h2 id="gposts-h">{t('groups.posts')}</h2>
              {/* Whoever may see the group reads its posts (ADR 0023); members also write. */}
              {me.data && !isMember ? <p className="state">{t('groups.joinToPost')}</p> : null}
              <PostList
                queryKey={['timeline', 'group', id]}
                path={pathOf('groupPosts', { id })}
                label={t('groups.postsIn', { name: g.name })}
                empty={t('groups.noPosts')}
              />
            </section>
            <section className="card" aria-labelledby="gmembers-h">
              <h2 id="gmembers-h">{t('groups.members')}</h2>
              <QueryState
                query={members}
                isEmpty={(d) => !d.orderedItems.length}
                empty={t('groups.noMembers')}
              >
                {(d) => (
                  <ul className="list">
                    {d.orderedItems.map((m) => (
                      <li key={m.id}>
                        <Link to="/users/$id" params={{ id: m.id }}>
                          {m.name ?? m.id}
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </QueryState>
            </section>
          </div>
        </>
      )}
    </QueryState>
  );
}
