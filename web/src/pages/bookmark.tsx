/**
 * One bookmark or folder (`/bookmarks/:id`, GET /bookmarks/:id): its link, note and tags, the
 * folder it sits in, and for a folder the items inside it. Public bookmarks open signed out too;
 * an invisible one is answered 404 by the server, the same as a missing one.
 */
import { Link, useParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { useConfig, useToken } from '../api/hooks';
import type { Bookmark, Collection } from '../api/types';
import { audienceLabel, when } from '../ui/format';
import { QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';
import { Rich } from '../i18n/rich';

function bookmarkQuery(id: string) {
  return {
    queryKey: ['bookmark', id],
    queryFn: async () => (await api.get<{ item: Bookmark }>(pathOf('bookmark', { id }))).item,
  };
}

/** A bookmark or folder in a list: folders and bookmarks alike open their own screen. */
export function BookmarkLink({ item }: { item: Bookmark }) {
  const label = item.title || item.href || item.id;
  return (
    <Link to="/bookmarks/$id" params={{ id: item.id }}>
      {item.type === 'Folder' ? `📁 ${label}` : label}
    </Link>
  );
}

function FolderItems({ folder }: { folder: Bookmark }) {
  const { t } = useT();
  const owner = folder.actorId ?? '';
  const items = useQuery({
    queryKey: ['bookmarks', owner, folder.id],
    queryFn: () =>
      api.get<Collection<Bookmark>>(pathOf('userBookmarks', { id: owner }), {
        parentFolder: folder.id,
        limit: 100,
      }),
    enabled: !!owner,
  });
  return (
    <section aria-labelledby="folder-items">
      <h2 id="folder-items">{t('library.inFolder')}</h2>
      <QueryState query={items} isEmpty={(d) => !d.orderedItems.length} empty={t('library.folderEmpty')}>
        {(d) => (
          <ul className="list" data-testid="folder-items">
            {d.orderedItems.map((b) => (
              <li key={b.id}>
                <BookmarkLink item={b} />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

function ParentFolder({ id }: { id: string }) {
  const { t } = useT();
  const parent = useQuery(bookmarkQuery(id));
  return (
    <p>
      <Rich
        text={t('library.inTheFolder', { name: parent.data?.title || t('library.itsFolder') })}
        parts={[<Link to="/bookmarks/$id" params={{ id }} />]}
      />
    </p>
  );
}

export function BookmarkPage() {
  const { t } = useT();
  const { id } = useParams({ from: '/bookmarks/$id' });
  const config = useConfig();
  const signedIn = Boolean(useToken());
  const bookmark = useQuery(bookmarkQuery(id));
  return (
    <QueryState query={bookmark}>
      {(b) => (
        <article className="card content" data-testid="bookmark">
          <h1>
            {b.type === 'Folder'
              ? `📁 ${b.title || t('library.folder')}`
              : b.title || b.href || t('library.bookmark')}
          </h1>
          {b.href ? (
            <p>
              <a href={b.href} rel="noopener noreferrer nofollow" target="_blank">
                {b.href}
              </a>
            </p>
          ) : null}
          {b.summary ? <p>{b.summary}</p> : null}
          {b.tags?.length ? (
            <p>{t('library.tags', { tags: b.tags.map((tag) => `#${tag}`).join(' ') })}</p>
          ) : null}
          <p className="meta">
            {b.actorId ? (
              <Rich
                text={t('library.savedBy', { name: b.actorId })}
                parts={[<Link to="/users/$id" params={{ id: b.actorId }} />]}
              />
            ) : null}
            {b.createdAt ? <span> · {when(b.createdAt)}</span> : null}
            {b.to ? <span> · {audienceLabel(b.to, config.data?.domain)}</span> : null}
          </p>
          {b.parentFolder ? <ParentFolder id={b.parentFolder} /> : null}
          {b.type === 'Folder' ? <FolderItems folder={b} /> : null}
          {signedIn ? (
            <p>
              <Link to="/bookmarks">{t('library.allMine')}</Link>
            </p>
          ) : null}
        </article>
      )}
    </QueryState>
  );
}
