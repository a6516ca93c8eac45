/** Pages (server-written documents) and my bookmarks with folders. */
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { useMe, useOutbox } from '../api/hooks';
import type { Bookmark, Collection, Page } from '../api/types';
import { ServerHtml } from '../ui/post-card';
import { ErrorNote, QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';

/** The site a link points at, shown beside a bookmark's title. */
function hostOf(href: string): string {
  try {
    return new URL(href).host;
  } catch {
    return href;
  }
}

export function PagesPage() {
  const { t } = useT();
  const pages = useQuery({
    queryKey: ['pages'],
    queryFn: () => api.get<Collection<Page>>(pathOf('pages'), { limit: 100 }),
  });
  return (
    <>
      <h1>{t('library.pages')}</h1>
      <QueryState query={pages} isEmpty={(d) => !d.orderedItems.length} empty={t('library.noPages')}>
        {(d) => (
          <ul className="list">
            {d.orderedItems.map((p) => (
              <li key={p.id}>
                <Link to="/pages/$slug" params={{ slug: p.slug || p.id }}>
                  {p.title}
                </Link>
                {p.summary ? <p>{p.summary}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}

export function PageDetail() {
  const { slug } = useParams({ from: '/pages/$slug' });
  const page = useQuery({
    queryKey: ['page', slug],
    queryFn: async () => {
      const out = await api.get<{ item?: Page } & Partial<Page>>(pathOf('page', { id: slug }));
      return (out.item ?? out) as Page;
    },
  });
  return (
    <QueryState query={page}>
      {(p) => (
        <article className="card">
          <h1>{p.title}</h1>
          <ServerHtml html={p.body} />
        </article>
      )}
    </QueryState>
  );
}

export function BookmarksPage() {
  const { t } = useT();
  const me = useMe();
  const userId = me.data!.id;
  const navigate = useNavigate();
  const { folder: folderId } = useSearch({ from: '/bookmarks' });
  const setFolder = (b: Bookmark | null) =>
    void navigate({ to: '/bookmarks', search: b ? { folder: b.id } : {} });
  const folderQuery = useQuery({
    queryKey: ['bookmark', folderId],
    queryFn: async () => {
      const out = await api.get<{ item?: Bookmark } & Partial<Bookmark>>(
        pathOf('bookmark', { id: folderId! }),
      );
      return (out.item ?? out) as Bookmark;
    },
    enabled: Boolean(folderId),
  });
  const folder: Pick<Bookmark, 'id' | 'title'> | null = folderId
    ? { id: folderId, title: folderQuery.data?.title ?? '…' }
    : null;
  const [form, setForm] = useState({ href: '', title: '' });
  const [folderName, setFolderName] = useState('');
  const key = ['bookmarks', userId, folder?.id ?? 'root'];
  const list = useQuery({
    queryKey: key,
    queryFn: () =>
      api.get<Collection<Bookmark>>(pathOf('userBookmarks', { id: userId }), {
        parentFolder: folder?.id ?? 'root',
        limit: 100,
      }),
  });
  const create = useOutbox([['bookmarks']]);
  const remove = useOutbox([['bookmarks']]);
  const parent = folder ? { parentFolder: folder.id } : {};
  return (
    <>
      <h1>{t('library.bookmarks')}</h1>
      <nav aria-label={t('library.folders')} className="crumbs">
        <button
          type="button"
          className="link-button"
          onClick={() => setFolder(null)}
          aria-current={folder ? undefined : 'page'}
        >
          {t('library.all')}
        </button>
        {folder ? <span> › {folder.title}</span> : null}
      </nav>
      <div className="two-col">
        <form
          className="card"
          aria-label={t('library.newBookmark')}
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(
              {
                type: 'Create',
                objectType: 'Bookmark',
                to: userId,
                object: { type: 'Bookmark', ...form, ...parent },
              },
              { onSuccess: () => setForm({ href: '', title: '' }) },
            );
          }}
        >
          <h2>{t('library.addBookmark')}</h2>
          <label>
            {t('library.link')}
            <input
              type="url"
              required
              value={form.href}
              onChange={(e) => setForm({ ...form, href: e.target.value })}
            />
          </label>
          <label>
            {t('library.title')}
            <input value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} />
          </label>
          <button type="submit" disabled={create.isPending}>
            {t('library.saveBookmark')}
          </button>
        </form>
        <form
          className="card"
          aria-label={t('library.newFolder')}
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(
              {
                type: 'Create',
                objectType: 'Bookmark',
                to: userId,
                object: { type: 'Folder', title: folderName, ...parent },
              },
              { onSuccess: () => setFolderName('') },
            );
          }}
        >
          <h2>{t('library.newFolder')}</h2>
          <label>
            {t('library.folderName')}
            <input required value={folderName} onChange={(e) => setFolderName(e.target.value)} />
          </label>
          <button type="submit" disabled={create.isPending}>
            {t('library.createFolder')}
          </button>
        </form>
      </div>
      <ErrorNote error={create.error ?? remove.error} title={t('common.refused')} />
      <QueryState query={list} isEmpty={(d) => !d.orderedItems.length} empty={t('library.empty')}>
        {(d) => (
          <ul className="list">
            {d.orderedItems.map((b) => (
              <li key={b.id}>
                {b.type === 'Folder' ? (
                  <button type="button" className="link-button" onClick={() => setFolder(b)}>
                    📁 {b.title}
                  </button>
                ) : (
                  <>
                    <Link to="/bookmarks/$id" params={{ id: b.id }}>
                      {b.title || b.href || b.target}
                    </Link>
                    {b.href ? (
                      <>
                        {' '}
                        <a href={b.href} rel="noopener noreferrer nofollow" target="_blank">
                          {hostOf(b.href)} ↗
                        </a>
                      </>
                    ) : null}
                  </>
                )}{' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => remove.mutate({ type: 'Delete', target: b.id })}
                >
                  {t('library.deleteItem', { name: b.title || t('library.bookmarkWord') })}
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
