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

function NewGroup() {
  const navigate = useNavigate();
  const config = useConfig();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [rsvpPolicy, setPolicy] = useState('open');
  const [to, setTo] = useState('@public');
  const create = useOutbox<Group>([['groups']]);
  return (
    <details className="card">
      <summary>New group</summary>
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
          Name
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Description
          <textarea
            rows={2}
            maxLength={5000}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <label>
          Who may join
          <select value={rsvpPolicy} onChange={(e) => setPolicy(e.target.value)}>
            <option value="open">Anyone</option>
            <option value="approvalOnly">Anyone, after approval</option>
            <option value="serverOpen">Anyone on this server</option>
            <option value="serverApproval">Anyone on this server, after approval</option>
            <option value="inviteOnly">By invitation only</option>
          </select>
        </label>
        <label>
          Who can see the group
          <select value={to} onChange={(e) => setTo(e.target.value)}>
            <option value="@public">Public</option>
            {config.data ? <option value={`@${config.data.domain}`}>This server</option> : null}
          </select>
        </label>
        <ErrorNote error={create.error} title="Not created" />
        <button type="submit" disabled={create.isPending}>
          Create group
        </button>
      </form>
    </details>
  );
}

export function GroupsPage() {
  const me = useMe();
  const groups = useQuery({
    queryKey: ['groups'],
    queryFn: () => api.get<Collection<Group>>(pathOf('groups'), { limit: 50 }),
  });
  return (
    <>
      <h1>Groups</h1>
      {me.data ? <NewGroup /> : null}
      <QueryState query={groups} isEmpty={(d) => !d.orderedItems.length} empty="No groups yet.">
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
  const pending = useQuery({
    queryKey: ['group', group.id, 'pending'],
    queryFn: () => api.get<Collection<Member>>(pathOf('groupPending', { id: group.id }), { limit: 100 }),
  });
  const act = useOutbox();
  return (
    <section className="card" aria-labelledby="pending-h">
      <h2 id="pending-h">Requests to join</h2>
      <ErrorNote error={act.error} title="Refused" />
      <QueryState query={pending} isEmpty={(d) => !d.orderedItems.length} empty="No pending requests.">
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
                  Approve {m.name ?? m.id}
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
                  Decline
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
                  Leave group
                </button>
              ) : g.isPending ? (
                <p role="status">Your request to join is waiting for approval.</p>
              ) : (
                <button
                  type="button"
                  onClick={() =>
                    act.mutate({ type: 'Join', target: g.id }, { onSuccess: () => void refresh() })
                  }
                >
                  Join group
                </button>
              )}
              <ErrorNote error={act.error} title="Refused" />
            </div>
          ) : null}
          {g.isAdmin ? <Pending group={g} refresh={refresh} /> : null}
          {isMember ? <Compose fixedTo={g.id} /> : null}
          <div className="two-col">
            <section aria-labelledby="gposts-h">
              <h2 id="gposts-h">Posts</h2>
              {/* Whoever may see the group reads its posts (ADR 0023); members also write. */}
              {me.data && !isMember ? <p className="state">Join the group to post in it.</p> : null}
              <PostList
                queryKey={['timeline', 'group', id]}
                path={pathOf('groupPosts', { id })}
                label={`Posts in ${g.name}`}
                empty="No posts in this group yet."
              />
            </section>
            <section className="card" aria-labelledby="gmembers-h">
              <h2 id="gmembers-h">Members</h2>
              <QueryState query={members} isEmpty={(d) => !d.orderedItems.length} empty="No members listed.">
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
