/** Discover: the curated shelves of GET /recommendations (issue 11), and search (issue 12). */
import { useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Collection, DiscoverShelf } from '../api/types';
import { QueryState } from '../ui/states';

type Target = {
  id: string;
  type?: string;
  name?: string;
  title?: string;
  summary?: string;
  slug?: string;
  username?: string;
};

/** The in-app link of an object, from its id's kind. */
export function ObjectLink({ item }: { item: Target }) {
  const label = item.title ?? item.name ?? item.username ?? item.id;
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

export function DiscoverPage() {
  const discover = useQuery({
    queryKey: ['discover'],
    queryFn: () => api.get<Collection<DiscoverShelf>>(pathOf('discover')),
  });
  return (
    <>
      <h1>Discover</h1>
      <QueryState query={discover} isEmpty={(d) => !d.orderedItems.length} empty="Nothing is featured yet.">
        {(d) =>
          d.orderedItems.map((s) => (
            <section key={s.id} className="card" aria-labelledby={`s-${s.id}`}>
              <h2 id={`s-${s.id}`}>{s.name}</h2>
              {s.summary ? <p>{s.summary}</p> : null}
              <ul className="list" data-testid="discover-items">
                {(s.items ?? []).map((r) => (
                  <li key={r.recommendation}>
                    <ObjectLink item={{ ...r, summary: r.summary ?? undefined }} />
                    {r.actor ? <span className="meta"> by {r.actor.name || r.actor.id}</span> : null}
                    {r.memberCount ? <span className="meta"> · {r.memberCount} members</span> : null}
                    {r.summary ? <p>{r.summary}</p> : null}
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
    </>
  );
}

const TYPES = [
  ['', 'Everything'],
  ['users', 'People'],
  ['posts', 'Posts'],
  ['pages', 'Pages'],
  ['groups', 'Groups'],
  ['bookmarks', 'Bookmarks'],
] as const;

export function SearchPage() {
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
      <h1>Search</h1>
      <form
        className="inline-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void navigate({ to: '/search', search: { q: text.trim(), type } });
        }}
      >
        <label>
          Search for
          <input
            type="search"
            name="q"
            maxLength={200}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <label>
          In
          <select
            value={type}
            onChange={(e) => void navigate({ to: '/search', search: { q, type: e.target.value } })}
          >
            {TYPES.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      {q ? (
        <QueryState
          query={results}
          isEmpty={(d) => !d.orderedItems.length}
          empty={`Nothing found for “${q}”.`}
        >
          {(d) => (
            <ul className="list" data-testid="search-results">
              {d.orderedItems.map((item) => (
                <li key={item.id}>
                  <ObjectLink item={item} /> {item.summary ? <p>{item.summary}</p> : null}
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      ) : (
        <p className="state">Type a name, a word or a #tag.</p>
      )}
    </>
  );
}
