/** Invites: create (open or for one address), list with their links, deactivate. */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Collection, Invite } from '../api/types';
import { when } from '../ui/format';
import { ErrorNote, QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';
import { Rich } from '../i18n/rich';

const link = (code: string) => `${window.location.origin}/signup?invite=${encodeURIComponent(code)}`;

export function InvitesPage() {
  const { t } = useT();
  const qc = useQueryClient();
  const [form, setForm] = useState({ type: 'open', email: '', maxRedemptions: '', expiresAt: '', note: '' });
  const invites = useQuery({
    queryKey: ['admin', 'invites'],
    queryFn: () => api.get<Collection<Invite>>(pathOf('adminInvites'), { limit: 100 }),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['admin', 'invites'] });
  const create = useMutation({
    mutationFn: () =>
      api.post<{ invite: Invite }>(pathOf('adminInvites'), {
        type: form.type,
        ...(form.type === 'individual' ? { email: form.email } : {}),
        ...(form.maxRedemptions ? { maxRedemptions: Number(form.maxRedemptions) } : {}),
        ...(form.expiresAt ? { expiresAt: new Date(form.expiresAt).toISOString() } : {}),
        ...(form.note ? { note: form.note } : {}),
      }),
    onSuccess: refresh,
  });
  const deactivate = useMutation({
    mutationFn: (id: string) => api.del(pathOf('adminInvite', { id })),
    onSuccess: refresh,
  });
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value });
  return (
    <>
      <h1>{t('admin.invites')}</h1>
      <form
        className="card"
        aria-label={t('admin.newInvite')}
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h2>{t('admin.newInvite')}</h2>
        <label>
          {t('admin.kind')}
          <select value={form.type} onChange={set('type')}>
            <option value="open">{t('admin.openInvite')}</option>
            <option value="individual">{t('admin.individualInvite')}</option>
          </select>
        </label>
        {form.type === 'individual' ? (
          <label>
            {t('admin.email')}
            <input type="email" required value={form.email} onChange={set('email')} />
          </label>
        ) : null}
        <label>
          {t('admin.uses')}
          <input type="number" min={1} value={form.maxRedemptions} onChange={set('maxRedemptions')} />
        </label>
        <label>
          {t('admin.expires')}
          <input type="datetime-local" value={form.expiresAt} onChange={set('expiresAt')} />
        </label>
        <label>
          {t('admin.note')}
          <input maxLength={500} value={form.note} onChange={set('note')} />
        </label>
        <ErrorNote error={create.error} title={t('admin.notCreated')} />
        {create.data ? (
          <p role="status" data-testid="invite-created">
            <Rich
              text={t('admin.inviteCreated', { link: link(create.data.invite.code) })}
              parts={[<code />]}
            />
          </p>
        ) : null}
        <button type="submit" disabled={create.isPending}>
          {t('admin.createInvite')}
        </button>
      </form>
      <ErrorNote error={deactivate.error} title={t('admin.refused')} />
      <QueryState query={invites} isEmpty={(d) => !d.orderedItems.length} empty={t('admin.noInvites')}>
        {(d) => (
          <ul className="plain">
            {d.orderedItems.map((i) => (
              <li key={i.id} className="card" data-testid="invite">
                <p>
                  <code>{i.code}</code> · {i.type}
                  {i.email ? ` · ${i.email}` : ''} ·{' '}
                  {i.active ? t('admin.inviteActive') : t('admin.inviteInactive')}
                  {i.expiresAt ? t('admin.expiresAt', { date: when(i.expiresAt) }) : ''}
                </p>
                {i.note ? <p>{i.note}</p> : null}
                {i.active ? (
                  <button type="button" className="secondary" onClick={() => deactivate.mutate(i.id)}>
                    {t('admin.deactivateInvite', { code: i.code })}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
