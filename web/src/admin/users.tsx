/** Users: soft delete, hard delete, restore; and who holds the admin and moderator roles. */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { AdminUser, Collection, Member } from '../api/types';
import { when } from '../ui/format';
import { ErrorNote, QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';

function Roles({ role }: { role: 'admins' | 'mods' }) {
  const { t } = useT();
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
  const admins = role === 'admins';
  const title = admins ? t('admin.admins') : t('admin.moderators');
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      <QueryState query={members} isEmpty={(d) => !d.members.length} empty={t('admin.nobody')}>
        {(d) => (
          <ul className="list">
            {d.members.map((m) => (
              <li key={m.id}>
                {m.name ?? m.id} <span className="meta">{m.id}</span>{' '}
                <button type="button" className="link-button" onClick={() => remove.mutate(m.id)}>
                  {t(admins ? 'admin.removeFromAdmins' : 'admin.removeFromModerators', {
                    name: m.name ?? m.id,
                  })}
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
          {t('admin.userId')}
          <input required value={who} onChange={(e) => setWho(e.target.value)} />
        </label>
        <button type="submit">{admins ? t('admin.addToAdmins') : t('admin.addToModerators')}</button>
      </form>
      <ErrorNote error={add.error ?? remove.error} title={t('admin.refused')} />
    </section>
  );
}

export function UsersPage() {
  const qc = useQueryClient();
  const { t } = useT();
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
      <h1>{t('admin.users')}</h1>
      <label>
        {t('admin.show')}
        <select value={deleted} onChange={(e) => setDeleted(e.target.value)}>
          <option value="false">{t('admin.active')}</option>
          <option value="true">{t('admin.deleted')}</option>
          <option value="include">{t('admin.all')}</option>
        </select>
      </label>
      <ErrorNote error={del.error ?? restore.error} title={t('admin.refused')} />
      <QueryState query={users} isEmpty={(d) => !d.orderedItems.length} empty={t('admin.noUsers')}>
        {(d) => (
          <div className="table-wrap">
            <table>
              <caption className="sr-only">{t('admin.users')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('admin.user')}</th>
                  <th scope="col">{t('admin.joined')}</th>
                  <th scope="col">{t('admin.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {d.orderedItems.map((u) => (
                  <tr key={u.id}>
                    <td>
                      <Link to="/users/$id" params={{ id: u.id }}>
                        {u.username}
                      </Link>
                      {u.deletedAt ? <span className="meta">{t('admin.deletedMark')}</span> : null}
                    </td>
                    <td>{when(u.createdAt)}</td>
                    <td className="actions">
                      {u.deletedAt ? (
                        <button type="button" onClick={() => restore.mutate(u.id)}>
                          {t('admin.restoreUser', { name: u.username })}
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => {
                            if (window.confirm(t('admin.confirmDeactivateUser', { name: u.username })))
                              del.mutate({ id: u.id, full: false });
                          }}
                        >
                          {t('admin.deactivateUser', { name: u.username })}
                        </button>
                      )}
                      <button
                        type="button"
                        className="danger"
                        onClick={() => {
                          if (window.confirm(t('admin.confirmUserForGood', { name: u.username })))
                            del.mutate({ id: u.id, full: true });
                        }}
                      >
                        {t('admin.deleteUserForGood', { name: u.username })}
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
