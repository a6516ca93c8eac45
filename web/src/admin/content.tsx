/**
 * Content (issue 11's shared CRUD shape, spec 4.5): posts, circles, groups and pages, with the
 * deleted filter, server-owned create and edit, soft and full delete, restore.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { contentPath, type ContentGroup } from '../api/routes';
import type { Collection } from '../api/types';
import { useConfig } from '../api/hooks';
import { ObjectLink } from '../pages/discover';
import { when } from '../ui/format';
import { ErrorNote, QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';

type Item = {
  id: string;
  name?: string;
  title?: string;
  summary?: string;
  description?: string;
  slug?: string;
  to?: string;
  deletedAt?: string | null;
  createdAt?: string;
  source?: { content?: string };
};

type Editable = Extract<ContentGroup, 'posts' | 'circles' | 'groups' | 'pages'>;

/** Each kind of content with the catalogue keys of its tab, its New button and its empty list. */
const GROUPS: Array<[Editable, string, string, string]> = [
  ['posts', 'admin.posts', 'admin.newPost', 'admin.noPosts'],
  ['circles', 'admin.circles', 'admin.newCircle', 'admin.noCircles'],
  ['groups', 'admin.groups', 'admin.newGroup', 'admin.noGroups'],
  ['pages', 'admin.pages', 'admin.newPage', 'admin.noPages'],
];

/** The create/update body of each group, from the two fields the form edits. */
function bodyFor(group: Editable, f: { title: string; text: string; slug: string; to: string }) {
  switch (group) {
    case 'posts':
      return { type: 'Note', to: f.to, ...(f.title ? { title: f.title } : {}), source: f.text };
    case 'circles':
      return { name: f.title, to: f.to, ...(f.text ? { summary: f.text } : {}) };
    case 'groups':
      return { name: f.title, to: f.to, ...(f.text ? { description: f.text } : {}) };
    case 'pages':
      return { title: f.title, to: f.to, source: f.text, ...(f.slug ? { slug: f.slug } : {}) };
  }
}

function Editor({ group, item, onDone }: { group: Editable; item?: Item; onDone: () => void }) {
  const { t } = useT();
  const config = useConfig();
  const [f, setF] = useState({
    title: item?.title ?? item?.name ?? '',
    text: item?.source?.content ?? item?.summary ?? item?.description ?? '',
    slug: item?.slug ?? '',
    to: item?.to ?? '@public',
  });
  const save = useMutation({
    mutationFn: () =>
      item
        ? api.patch(contentPath(group, item.id), bodyFor(group, f))
        : api.post(contentPath(group), bodyFor(group, f)),
    onSuccess: onDone,
  });
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) =>
    setF({ ...f, [k]: e.target.value });
  return (
    <form
      className="card"
      aria-label={item ? t('admin.edit') : t('admin.create')}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <label>
        {group === 'posts' || group === 'pages' ? t('admin.title') : t('admin.name')}
        <input required={group !== 'posts'} value={f.title} onChange={set('title')} />
      </label>
      {group === 'pages' ? (
        <label>
          {t('admin.slug')}
          <input pattern="[a-z0-9]+(-[a-z0-9]+)*" value={f.slug} onChange={set('slug')} />
        </label>
      ) : null}
      <label>
        {group === 'posts' || group === 'pages' ? t('admin.textMarkdown') : t('admin.description')}
        <textarea
          rows={4}
          required={group === 'posts' || group === 'pages'}
          value={f.text}
          onChange={set('text')}
        />
      </label>
      <label>
        {t('admin.audience')}
        <select value={f.to} onChange={set('to')}>
          <option value="@public">{t('common.public')}</option>
          {config.data ? <option value={`@${config.data.domain}`}>{t('common.thisServer')}</option> : null}
        </select>
      </label>
      <ErrorNote error={save.error} title={t('admin.notSaved')} />
      <button type="submit" disabled={save.isPending}>
        {item ? t('admin.save') : t('admin.create')}
      </button>
    </form>
  );
}

export function ContentPage() {
  const { t } = useT();
  const qc = useQueryClient();
  const [group, setGroup] = useState<Editable>('posts');
  const [, , newLabel, emptyLabel] = GROUPS.find(([g]) => g === group)!;
  const [deleted, setDeleted] = useState('false');
  const [editing, setEditing] = useState<Item | 'new' | null>(null);
  const list = useQuery({
    queryKey: ['admin', 'content', group, deleted],
    queryFn: () => api.get<Collection<Item>>(contentPath(group), { deleted, limit: 50 }),
  });
  const refresh = () => {
    setEditing(null);
    return qc.invalidateQueries({ queryKey: ['admin', 'content', group] });
  };
  const del = useMutation({
    mutationFn: ({ id, full }: { id: string; full: boolean }) =>
      api.del(contentPath(group, id), full ? { fullDelete: 'true' } : undefined),
    onSuccess: refresh,
  });
  const restore = useMutation({
    mutationFn: (id: string) => api.post(contentPath(group, id, 'restore')),
    onSuccess: refresh,
  });
  return (
    <>
      <h1>{t('admin.content')}</h1>
      <div className="tabs" role="group" aria-label={t('admin.kindOfContent')}>
        {GROUPS.map(([g, label]) => (
          <button key={g} type="button" aria-pressed={g === group} onClick={() => setGroup(g)}>
            {t(label)}
          </button>
        ))}
      </div>
      <div className="actions">
        <label>
          {t('admin.show')}
          <select value={deleted} onChange={(e) => setDeleted(e.target.value)}>
            <option value="false">{t('admin.live')}</option>
            <option value="true">{t('admin.deleted')}</option>
            <option value="include">{t('admin.all')}</option>
          </select>
        </label>
        <button type="button" onClick={() => setEditing('new')}>
          {t(newLabel)}
        </button>
      </div>
      {editing ? (
        <Editor
          key={editing === 'new' ? 'new' : editing.id}
          group={group}
          item={editing === 'new' ? undefined : editing}
          onDone={() => void refresh()}
        />
      ) : null}
      <ErrorNote error={del.error ?? restore.error} title={t('admin.refused')} />
      <QueryState query={list} isEmpty={(d) => !d.orderedItems.length} empty={t(emptyLabel)}>
        {(d) => (
          <ul className="plain">
            {d.orderedItems.map((it) => (
              <li key={it.id} className="card" data-testid="content-item">
                <ObjectLink item={{ ...it, title: it.title ?? it.name ?? it.summary?.slice(0, 80) }} />{' '}
                <span className="meta">
                  {it.to} · {when(it.createdAt)}
                  {it.deletedAt ? t('admin.deletedTag') : ''}
                </span>
                <div className="actions">
                  {it.deletedAt ? (
                    <button type="button" onClick={() => restore.mutate(it.id)}>
                      {t('admin.restore')}
                    </button>
                  ) : (
                    <>
                      <button type="button" className="secondary" onClick={() => setEditing(it)}>
                        {t('admin.edit')}
                      </button>
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => del.mutate({ id: it.id, full: false })}
                      >
                        {t('admin.delete')}
                      </button>
                    </>
                  )}
                  <button
                    type="button"
                    className="danger"
                    onClick={() => {
                      if (window.confirm(t('admin.confirmForGood'))) del.mutate({ id: it.id, full: true });
                    }}
                  >
                    {t('admin.deleteForGood')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
