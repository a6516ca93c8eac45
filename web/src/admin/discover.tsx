/** Discover curation (issue 11): sections (shelves) and the recommendations on them. */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { contentPath, pathOf } from '../api/routes';
import type { Collection, Recommendation, Section } from '../api/types';
import type { Described } from '../api/extra-types';
import { ObjectLink, authorOf, labelOf } from '../pages/discover';
import { ErrorNote, QueryState } from '../ui/states';

function NewSection({ onDone }: { onDone: () => Promise<unknown> }) {
  const [f, setF] = useState({ name: '', summary: '', order: '0' });
  const create = useMutation({
    mutationFn: () =>
      api.post(contentPath('sections'), {
        name: f.name,
        summary: f.summary,
        order: Number(f.order),
        to: '@public',
        active: true,
      }),
    onSuccess: () => onDone().then(() => setF({ name: '', summary: '', order: '0' })),
  });
  return (
    <form
      className="card"
      aria-label="New section"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>New section</h2>
      <label>
        Name
        <input required value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
      </label>
      <label>
        Summary
        <input value={f.summary} onChange={(e) => setF({ ...f, summary: e.target.value })} />
      </label>
      <label>
        Order
        <input type="number" value={f.order} onChange={(e) => setF({ ...f, order: e.target.value })} />
      </label>
      <ErrorNote error={create.error} title="Not created" />
      <button type="submit" disabled={create.isPending}>
        Add section
      </button>
    </form>
  );
}

/** What search finds and Discover can show (circles are not in the search index). */
const FEATURABLE = 'posts,pages,groups,bookmarks';

/**
 * Curation by title: the admin searches (GET /search, as any reader) and features a result;
 * nobody types an id. Whether the pick may be featured is the server's rule (spec 4.5: not a
 * person, not private), and a refusal is shown beside the section.
 */
function FindToFeature({
  section,
  busy,
  onPick,
}: {
  section: Section;
  busy: boolean;
  onPick: (ref: string) => void;
}) {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const found = useQuery({
    queryKey: ['admin', 'feature-search', q],
    queryFn: () =>
      api.get<Collection<Described & { publishedAt?: string | null }>>(pathOf('search'), {
        q,
        searchIn: FEATURABLE,
        limit: 10,
      }),
    enabled: q.length > 0,
  });
  return (
    <>
      <form
        className="inline-form"
        role="search"
        aria-label={`Find something to feature in ${section.name}`}
        onSubmit={(e) => {
          e.preventDefault();
          setQ(text.trim());
        }}
      >
        <label>
          Find a post, page, group or bookmark
          <input
            type="search"
            required
            maxLength={100}
            placeholder="Words from its title or text, or a #tag"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <button type="submit">Find</button>
      </form>
      {q ? (
        <QueryState query={found} isEmpty={(d) => !d.orderedItems.length} empty={`Nothing found for “${q}”.`}>
          {(d) => (
            <ul className="list" aria-label="Found">
              {d.orderedItems.map((item) => (
                <li key={item.id}>
                  <ObjectLink item={item} />
                  {authorOf(item) ? <span className="meta">by {authorOf(item)}</span> : null}
                  <button type="button" disabled={busy} onClick={() => onPick(item.id)}>
                    Feature “{labelOf(item)}”
                  </button>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      ) : null}
    </>
  );
}

function SectionCard({
  section,
  recs,
  onChange,
}: {
  section: Section;
  recs: Recommendation[];
  onChange: () => Promise<unknown>;
}) {
  const [note, setNote] = useState('');
  const add = useMutation({
    mutationFn: (ref: string) =>
      api.post(contentPath('recommendations'), { ref, section: section.id, note, order: recs.length }),
    onSuccess: () => onChange().then(() => setNote('')),
  });
  const toggle = useMutation({
    mutationFn: (r: Recommendation) =>
      api.patch(contentPath('recommendations', r.id), { active: !(r.active ?? true) }),
    onSuccess: onChange,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.del(contentPath('recommendations', id), { fullDelete: 'true' }),
    onSuccess: onChange,
  });
  const removeSection = useMutation({
    mutationFn: () => api.del(contentPath('sections', section.id), { fullDelete: 'true' }),
    onSuccess: onChange,
  });
  return (
    <section className="card" aria-labelledby={`sec-${section.id}`} data-testid="section">
      <h2 id={`sec-${section.id}`}>{section.name}</h2>
      {section.summary ? <p>{section.summary}</p> : null}
      <ul className="list">
        {recs.map((r) => (
          <li key={r.id}>
            <ObjectLink item={r.target ?? { id: r.ref }} />
            {r.target && authorOf(r.target) ? (
              <span className="meta">by {authorOf(r.target)}</span>
            ) : null}{' '}
            {r.note ? <span className="meta">{r.note}</span> : null}{' '}
            <button type="button" className="link-button" onClick={() => toggle.mutate(r)}>
              {(r.active ?? true) ? 'Hide' : 'Show'}
            </button>{' '}
            <button type="button" className="link-button" onClick={() => remove.mutate(r.id)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <label>
        Note
        <input value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      <FindToFeature section={section} busy={add.isPending} onPick={(ref) => add.mutate(ref)} />
      <ErrorNote error={add.error ?? toggle.error ?? remove.error ?? removeSection.error} title="Refused" />
      <button
        type="button"
        className="danger"
        onClick={() => {
          if (window.confirm(`Delete the section “${section.name}” and its recommendations?`))
            removeSection.mutate();
        }}
      >
        Delete section
      </button>
    </section>
  );
}

export function DiscoverAdminPage() {
  const qc = useQueryClient();
  const sections = useQuery({
    queryKey: ['admin', 'sections'],
    queryFn: () => api.get<Collection<Section>>(contentPath('sections'), { limit: 100 }),
  });
  const recs = useQuery({
    queryKey: ['admin', 'recommendations'],
    queryFn: () => api.get<Collection<Recommendation>>(contentPath('recommendations'), { limit: 100 }),
  });
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: ['admin', 'sections'] }),
      qc.invalidateQueries({ queryKey: ['admin', 'recommendations'] }),
      qc.invalidateQueries({ queryKey: ['discover'] }),
    ]);
  return (
    <>
      <h1>Discover curation</h1>
      <NewSection onDone={refresh} />
      <ErrorNote error={recs.error} />
      <QueryState
        query={sections}
        isEmpty={(d) => !d.orderedItems.length}
        empty="No sections yet: add one above."
      >
        {(d) =>
          [...d.orderedItems]
            .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
            .map((s) => (
              <SectionCard
                key={s.id}
                section={s}
                recs={(recs.data?.orderedItems ?? []).filter(
                  (r) => r.section === s.id || r.section === s.name,
                )}
                onChange={refresh}
              />
            ))
        }
      </QueryState>
    </>
  );
}
