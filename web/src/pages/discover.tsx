/** Discover: the curated shelves of GET /recommendations (issue 11), and search (issue 12). */
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Collection, DiscoverShelf } from '../api/types';
import type { Described } from '../api/extra-types';
import { when, memberCount } from '../ui/format';
import { QueryState } from '../ui/states';
import { t, useT } from '../i18n/use-t';

type Target = Described & { publishedAt?: string | null; description?: string };

/** The kinds of object that have words of their own, with their catalogue keys. */
const KIND_WORDS: Record<string, string> = {
  post: 'discover.kinds.post',
  circle: 'discover.kinds.circle',
  group: 'discover.kinds.group',
  page: 'discover.kinds.page',
  bookmark: 'discover.kinds.bookmark',
  reply: 'discover.kinds.reply',
};

/** Who wrote an item, in words (never an id). */
export function authorOf(item: Target): string | undefined {
  return item.attributedTo?.name || item.actor?.name || undefined;
}

/** The words an item is shown by: its title or name, else an excerpt, else what it is and who wrote it. */
export function labelOf(item: Target): string {
  const excerpt = item.summary?.trim() ? item.summary.trim().slice(0, 80) : undefined;
  const named = item.title || item.name || item.profile?.name || item.username || excerpt;
  if (named) return named;
  if (item.id.startsWith('@')) return item.id;
  return t(KIND_WORDS[item.id.split(':')[0] ?? ''] ?? 'discover.kinds.item');
}

/** The excerpt under the link, unless the link already shows it. */
function Excerpt({ item }: { item: Target }) {
  const text = item.summary?.trim() || item.description?.trim();
  if (!text || labelOf(item) === text.slice(0, 80)) return null;
  return <p>{text}</p>;
}

/** Author, date and excerpt of a search result or a Discover card. */
function Byline({ item }: { item: Target }) {
  useT();
  const by = authorOf(item);
  const at = item.publishedAt ?? item.published ?? item.createdAt;
  if (!by && !at) return null;
  return (
    <span className="meta">
      {by ? t('discover.by', { name: by }) : ''}
      {at ? (
        <>
          {' · '}
          <time dateTime={at}>{when(at)}</time>
        </>
      ) : null}
    </span>
  );
}

/** The in-app link of an object, from its id's kind. */
export function ObjectLink({ item }: { item: Target }) {
  useT();
  const label = labelOf(item);
  const kind = item.id.split(':')[0];
  if (item.id.startsWith('@'))
    return (
      <Link to="/users/$id" params={{ id: item.id }}>
        {label}
      </Link>
    );
  switch (kind) {
    case 'post':
      return (
        <Link to="/posts/$id" params={{ id: item.id }}>
          {label}
        </Link>
      );
    case 'circle':
      return (
        <Link to="/circles/$id" params={{ id: item.id }}>
          {label}
        </Link>
      );
    case 'group':
      return (
        <Link to="/groups/$id" params={{ id: item.id }}>
          {label}
        </Link>
      );
    case 'page':
      return (
        <Link to="/pages/$slug" params={{ slug: item.slug || item.id }}>
          {label}
        </Link>
      );
    case 'bookmark':
    case 'reply':
    case undefined:
    default:
      return <span>{label}</span>;
  }
}

/**
 * The Discover shelves (GET /recommendations), with `Heading` one level below the screen's own
 * heading (`h2` on Discover, `h3` inside the suggestions on an empty home).
 */
export function Shelves({ empty, Heading = 'h2' }: { empty?: ReactNode; Heading?: 'h2' | 'h3' }) {
  useT();
  const discover = useQuery({
    queryKey: ['discover'],
    queryFn: () => api.get<Collection<DiscoverShelf>>(pathOf('discover')),
  });
  return (
    <QueryState
      query={discover}
      isEmpty={(d) => !d.orderedItems.length}
      empty={empty ?? t('discover.nothing')}
    >
      {(d) =>
        d.orderedItems.map((s) => (
          <section key={s.id} className="card" aria-labelledby={`s-${s.id}`}>
            <Heading id={`s-${s.id}`}>{s.name}</Heading>
            {s.summary ? <p>{s.summary}</p> : null}
            <ul className="list" data-testid="discover-items">
              {(s.items ?? []).map((r) => (
                <li key={r.recommendation}>
                  <ObjectLink item={r} />
                  <Byline item={r} />
                  {r.memberCount ? <span className="meta"> · {memberCount(r.memberCount)}</span> : null}
                  <Excerpt item={r} />
                  {r.note ? (
                    <p>
                      <em>{r.note}</em>
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ))
      }
    </QueryState>
  );
}

export function DiscoverPage() {
  const { t } = useT();
  return (
    <>
      <h1>{t('discover.title')}</h1>
      <Shelves />
    </>
  );
}

/** Each search type and the catalogue key of its name. */
const TYPES = [
  ['', 'search.everything'],
  ['users', 'search.people'],
  ['posts', 'search.posts'],
  ['pages', 'search.pages'],
  ['groups', 'search.groups'],
  ['bookmarks', 'search.bookmarks'],
] as const;

export function SearchPage() {
  const { t } = useT();
  const { q, type } = useSearch({ from: '/search' });
  const navigate = useNavigate();
  const [text, setText] = useState(q);
  const results = useQuery({
    queryKey: ['search', q, type],
    queryFn: () => api.get<Collection<Target>>(pathOf('search'), { q, type, limit: 50 }),
    enabled: q.trim().length > 0,
  });
  return (
    <>
      <h1>{t('search.title')}</h1>
      <form
        className="inline-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void navigate({ to: '/search', search: { q: text.trim(), type } });
        }}
      >
        <label>
          {t('search.for')}
          <input
            type="search"
            name="q"
            maxLength={200}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <label>
          {t('search.in')}
          <select
            value={type}
            onChange={(e) => void navigate({ to: '/search', search: { q, type: e.target.value } })}
          >
            {TYPES.map(([v, l]) => (
              <option key={v} value={v}>
                {t(l)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t('search.submit')}</button>
      </form>
      {q ? (
        <QueryState
          query={results}
          isEmpty={(d) => !d.orderedItems.length}
          empty={t('search.nothingFound', { q })}
        >
          {(d) => (
            <ul className="list" data-testid="search-results">
              {d.orderedItems.map((item) => (
                <li key={item.id}>
                  <ObjectLink item={item} />
                  <Byline item={item} />
                  <Excerpt item={item} />
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      ) : (
        <p className="state">{t('search.hint')}</p>
      )}
    </>
  );
}
