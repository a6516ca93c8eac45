/** Circles: mine (create), one circle (timeline, members, edit, delete). */
import { useState } from 'react';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { useConfig, useMe, useOutbox } from '../api/hooks';
import type { Circle, Collection, Member } from '../api/types';
import { Compose } from '../ui/compose';
import { audienceLabel, memberCount } from '../ui/format';
import { Avatar } from '../ui/post-card';
import { ErrorNote, QueryState } from '../ui/states';
import { Timeline } from '../ui/timeline';
import { useT } from '../i18n/use-t';

function AudienceSelect({
  value,
  onChange,
  self,
}: {
  value: string;
  onChange: (v: string) => void;
  self: string;
}) {
  const { t } = useT();
  const config = useConfig();
  return (
    <label>
      {t('circles.whoCanSee')}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value={self}>{t('common.onlyMe')}</option>
        {config.data ? <option value={`@${config.data.domain}`}>{t('common.thisServer')}</option> : null}
        <option value="@public">{t('common.public')}</option>
      </select>
    </label>
  );
}

export function CirclesPage() {
  const { t } = useT();
  const me = useMe();
  const user = me.data!;
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [summary, setSummary] = useState('');
  const [to, setTo] = useState(user.id);
  const circles = useQuery({
    queryKey: ['my-circles', user.id],
    queryFn: () => api.get<Collection<Circle>>(pathOf('userCircles', { id: user.id }), { limit: 100 }),
  });
  const create = useOutbox<Circle>([['my-circles']]);
  return (
    <>
      <h1>{t('circles.title')}</h1>
      <form
        className="card"
        aria-label={t('circles.newCircle')}
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { type: 'Create', objectType: 'Circle', to, object: { name, ...(summary ? { summary } : {}) } },
            {
              onSuccess: (out) =>
                void navigate({ to: '/circles/$id', params: { id: out.createdId ?? out.result.id } }),
            },
          );
        }}
      >
        <h2>{t('circles.newCircle')}</h2>
        <label>
          {t('common.name')}
          <input
            name="circle-name"
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label>
          {t('common.description')}
          <input
            name="circle-summary"
            maxLength={2000}
            value={summary}
            onChange={(e) => setSummary(e.target.value)}
          />
        </label>
        <AudienceSelect value={to} onChange={setTo} self={user.id} />
        <ErrorNote error={create.error} title={t('common.notCreated')} />
        <button type="submit" disabled={create.isPending}>
          {t('circles.create')}
        </button>
      </form>
      <h2>{t('circles.mine')}</h2>
      <QueryState query={circles} isEmpty={(d) => !d.orderedItems.length} empty={t('circles.none')}>
        {(d) => (
          <ul className="list">
            {d.orderedItems.map((c) => (
              <li key={c.id}>
                <Link to="/circles/$id" params={{ id: c.id }}>
                  {c.name}
                </Link>{' '}
                <span className="meta">
                  {memberCount(c.memberCount)}
                  {c.type === 'System' ? t('circles.builtIn') : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}

function Members({ circle }: { circle: Circle }) {
  const { t } = useT();
  const qc = useQueryClient();
  const [who, setWho] = useState('');
  const config = useConfig();
  const members = useQuery({
    queryKey: ['circle-members', circle.id],
    queryFn: () => api.get<Collection<Member>>(pathOf('circleMembers', { id: circle.id }), { limit: 100 }),
  });
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['circle-members', circle.id] }),
      qc.invalidateQueries({ queryKey: ['circle', circle.id] }),
      qc.invalidateQueries({ queryKey: ['timeline', circle.id] }),
    ]);
  const add = useOutbox();
  const remove = useOutbox();
  // "bob" means the local user @bob@<domain>; a full handle reaches a remote user.
  const handle = (v: string) => {
    const t = v.trim().replace(/^@/, '');
    return t.includes('@') ? `@${t}` : `@${t}@${config.data?.domain ?? ''}`;
  };
  return (
    <section aria-labelledby="members-h" className="card">
      <h2 id="members-h">{t('circles.members')}</h2>
      {circle.isOwner ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate(
              { type: 'Add', target: circle.id, object: handle(who) },
              { onSuccess: () => void refresh().then(() => setWho('')) },
            );
          }}
        >
          <label>
            {t('circles.addMember')}
            <input name="member" required value={who} onChange={(e) => setWho(e.target.value)} />
          </label>
          <button type="submit" disabled={add.isPending}>
            {t('common.add')}
          </button>
        </form>
      ) : null}
      <ErrorNote error={add.error ?? remove.error} title={t('common.refused')} />
      <QueryState query={members} isEmpty={(d) => !d.orderedItems.length} empty={t('circles.noMembers')}>
        {(d) => (
          <ul className="list" data-testid="members">
            {d.orderedItems.map((m) => (
              <li key={m.id}>
                <Avatar src={m.icon} name={m.name} />
                <Link to="/users/$id" params={{ id: m.id }}>
                  {m.name ?? m.id}
                </Link>{' '}
                {circle.isOwner ? (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() =>
                      remove.mutate(
                        { type: 'Remove', target: circle.id, object: m.id },
                        { onSuccess: () => void refresh() },
                      )
                    }
                  >
                    {t('circles.removeMember', { name: m.name ?? m.id })}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

function EditCircle({ circle }: { circle: Circle }) {
  const { t } = useT();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(circle.name);
  const [summary, setSummary] = useState(circle.summary ?? '');
  const update = useOutbox([['circle', circle.id], ['my-circles']]);
  const del = useOutbox([['my-circles']]);
  return (
    <details className="card">
      <summary>{t('circles.edit')}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          update.mutate({ type: 'Update', target: circle.id, object: { name, summary } });
        }}
      >
        <label>
          {t('common.name')}
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t('common.description')}
          <input value={summary} onChange={(e) => setSummary(e.target.value)} />
        </label>
        <ErrorNote error={update.error ?? del.error} title={t('common.refused')} />
        {update.isSuccess ? <p role="status">{t('common.saved')}</p> : null}
        <button type="submit" disabled={update.isPending}>
          {t('common.save')}
        </button>{' '}
        <button
          type="button"
          className="danger"
          onClick={() => {
            if (window.confirm(t('circles.confirmDelete', { name: circle.name })))
              del.mutate(
                { type: 'Delete', target: circle.id },
                {
                  onSuccess: () => {
                    qc.removeQueries({ queryKey: ['circle', circle.id] });
                    void navigate({ to: '/circles' });
                  },
                },
              );
          }}
        >
          {t('circles.delete')}
        </button>
      </form>
    </details>
  );
}

export function CirclePage() {
  const { t } = useT();
  const { id } = useParams({ from: '/circles/$id' });
  const config = useConfig();
  const me = useMe();
  const circle = useQuery({
    queryKey: ['circle', id],
    queryFn: async () => (await api.get<{ item: Circle }>(pathOf('circle', { id }))).item,
  });
  return (
    <QueryState query={circle}>
      {(c) => (
        <>
          <h1>{c.name}</h1>
          <p className="meta">
            {audienceLabel(c.to, config.data?.domain)} · {memberCount(c.memberCount)}
            {c.summary ? ` · ${c.summary}` : ''}
          </p>
          {c.isOwner && c.type !== 'System' ? <EditCircle circle={c} /> : null}
          {c.isOwner && c.type !== 'System' && c.id !== me.data?.following ? (
            <Compose defaultTo={c.id} />
          ) : null}
          <div className="two-col">
            <Timeline
              key={c.id}
              circleId={c.id}
              lastSeenAt={c.lastSeenAt ?? null}
              isOwner={c.isOwner}
              empty={c.isOwner ? t('circles.emptyOwner') : t('circles.empty')}
            />
            <Members circle={c} />
          </div>
        </>
      )}
    </QueryState>
  );
}
