/** Users: soft delete, hard delete, restore; and who holds the admin and moderator roles. */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { AdminUser, Collection, Member } from '../api/types';
import { when } from '../ui/format';
import { ErrorNote, QueryState } from '../ui/states';

function Roles({ role }: { role: 'admins' | 'mods' }) {
  const qc = useQueryClient();
  const [who, setWho] = useState('');
  const [list, one] =
    role === 'admins' ? (['adminAdmins', 'adminAdmin'] as const) : (['adminMods', 'adminMod'] as const);
  const members = useQuery({
    queryKey: ['admin', role],
    queryFn: () => api.get<{ members: Member[] }>(pathOf(list)),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['admin', role] });
  const add = useMutation({
    mutationFn: (userId: string) => api.post(pathOf(list), { userId }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (userId: string) => api.del(pathOf(one, { userId })),
    onSuccess: refresh,
  });
  const title = role === 'admins' ? 'Admins' : 'Moderators';
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      <QueryState query={members} isEmpty={(d) => !d.members.length} empty="Nobody.">
        {(d) => (
          <ul className="list">
            {d.members.map((m) => (
              <li key={m.id}>
                {m.name ?? m.id} <span className="meta">{m.id}</span>{' '}
                <button type="button" className="link-button" onClick={() => remove.mutate(m.id)}>
                  Remove {m.name ?? m.id} from {title.toLowerCase()}
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate(who.trim(), { onSuccess: () => setWho('') });
        }}
      >
        <label>
          User id (@name@domain)
          <input required value={who} onChange={(e) => setWho(e.target.value)} />
        </label>
        <button type="submit">Add to {title.toLowerCase()}</button>
      </form>
      <ErrorNote error={add.error ?? remove.error} title="Refused" />
    </section>
  );
}

export function UsersPage() {
  const qc = useQueryClient();
  const [deleted, setDeleted] = useState('false');
  const users = useQuery({
    queryKey: ['admin', 'users', deleted],
    queryFn: () => api.get<Collection<AdminUser>>(pathOf('adminUsers'), { deleted, limit: 100 }),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['admin', 'users'] });
  const del = useMutation({
    mutationFn: ({ id, full }: { id: string; full: boolean }) =>
      api.del(pathOf('adminUser', { id }), full ? { fullDelete: 'true' } : undefined),
    onSuccess: refresh,
  });
  const restore = useMutation({
    mutationFn: (id: string) => api.post(pathOf('adminUserRestore', { id })),
    onSuccess: refresh,
  });
  return (
    <>
      <h1>Users</h1>
      <label>
        Show
        <select value={deleted} onChange={(e) => setDeleted(e.target.value)}>
          <option value="false">Active</option>
          <option value="true">Deleted</option>
          <option value="include">All</option>
        </select>
      </label>
      <ErrorNote error={del.error ?? restore.error} title="Refused" />
      <QueryState query={users} isEmpty={(d) => !d.orderedItems.length} empty="No users.">
        {(d) => (
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Users</caption>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Joined</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {d.orderedItems.map((u) => (
                  <tr key={u.id}>
                    <td>
                      <Link to="/users/$id" params={{ id: u.id }}>
                        {u.username}
                      </Link>
                      {u.deletedAt ? <span className="meta"> (deleted)</span> : null}
                    </td>
                    <td>{when(u.createdAt)}</td>
                    <td className="actions">
                      {u.deletedAt ? (
                        <button type="button" onClick={() => restore.mutate(u.id)}>
                          Restore {u.username}
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => del.mutate({ id: u.id, full: false })}
                        >
                          Deactivate {u.username}
                        </button>
                      )}
                      <button
                        type="button"
                        className="danger"
                        onClick={() => {
                          if (window.confirm(`Delete ${u.username} for good? This cannot be undone.`))
                            del.mutate({ id: u.id, full: true });
                        }}
                      >
                        Delete {u.username} for good
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <div className="two-col">
        <Roles role="admins" />
        <Roles role="mods" />
      </div>
    </>
  );
}
