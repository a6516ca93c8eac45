/** Discover curation (issue 11): sections (shelves) and the recommendations on them. */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { contentPath, pathOf } from '../api/routes';
import type { Collection, Recommendation, Section } from '../api/types';
import type { Described } from '../api/extra-types';
import { ObjectLink, authorOf, labelOf } from '../pages/discover';
import { ErrorNote, QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';

function NewSection({ onDone }: { onDone: () => Promise<unknown> }) {
  const { t } = useT();
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
      aria-label={t('admin.newSection')}
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>{t('admin.newSection')}</h2>
      <label>
        {t('admin.name')}
        <input required value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
      </label>
      <label>
        {t('admin.summary')}
        <input value={f.summary} onChange={(e) => setF({ ...f, summary: e.target.value })} />
      </label>
      <label>
        {t('admin.order')}
        <input type="number" value={f.order} onChange={(e) => setF({ ...f, order: e.target.value })} />
      </label>
      <ErrorNote error={create.error} title={t('admin.notCreated')} />
      <button type="submit" disabled={create.isPending}>
        {t('admin.addSection')}
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
  const { t } = useT();
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
        aria-label={t('admin.findIn', { name: section.name })}
        onSubmit={(e) => {
          e.preventDefault();
          setQ(text.trim());
        }}
      >
        <label>
          {t('admin.findLabel')}
          <input
            type="search"
            required
            maxLength={100}
            placeholder={t('admin.findPlaceholder')}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <button type="submit">{t('admin.find')}</button>
      </form>
      {q ? (
        <QueryState
          query={found}
          isEmpty={(d) => !d.orderedItems.length}
          empty={t('admin.nothingFound', { q })}
        >
          {(d) => (
            <ul className="list" aria-label={t('admin.found')}>
              {d.orderedItems.map((item) => (
                <li key={item.id}>
                  <ObjectLink item={item} />
                  {authorOf(item) ? (
                    <span className="meta">{t('admin.by', { name: authorOf(item) })}</span>
                  ) : null}
                  <button type="button" disabled={busy} onClick={() => onPick(item.id)}>
                    {t('admin.feature', { label: labelOf(item) })}
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
  const { t } = useT();
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
              <span className="meta">{t('admin.by', { name: authorOf(r.target) })}</span>
            ) : null}{' '}
            {r.note ? <span className="meta">{r.note}</span> : null}{' '}
            <button type="button" className="link-button" onClick={() => toggle.mutate(r)}>
              {(r.active ?? true) ? t('admin.hide') : t('admin.showRec')}
            </button>{' '}
            <button type="button" className="link-button" onClick={() => remove.mutate(r.id)}>
              {t('admin.remove')}
            </button>
          </li>
        ))}
      </ul>
      <label>
        {t('admin.note')}
        <input value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      <FindToFeature section={section} busy={add.isPending} onPick={(ref) => add.mutate(ref)} />
      <ErrorNote
        error={add.error ?? toggle.error ?? remove.error ?? removeSection.error}
        title={t('admin.refused')}
      />
      <button
        type="button"
        className="danger"
        onClick={() => {
          if (window.confirm(t('admin.confirmSection', { name: section.name }))) removeSection.mutate();
        }}
      >
        {t('admin.deleteSection')}
      </button>
    </section>
  );
}

export function DiscoverAdminPage() {
  const { t } = useT();
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
      <h1>{t('admin.curation')}</h1>
      <NewSection onDone={refresh} />
      <ErrorNote error={recs.error} />
      <QueryState query={sections} isEmpty={(d) => !d.orderedItems.length} empty={t('admin.noSections')}>
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
