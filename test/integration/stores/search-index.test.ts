/**
 * SearchStore's candidates on both engines, whichever index serves them (SQLite's FTS5 term
 * index, MongoDB's term rows: ADR 0033), index coverage checked: terms of any characters found
 * whole and only whole; no query, however odd, fails or finds an entry without the term; newest
 * first with ties by id descending at every limit, across kinds and within one, over many
 * entries; removals; dates far from now; and `prepare` putting the term rows in step with the
 * entries after a backup or a copy from the other engine.
 */
import { SEARCH_ENTRIES, SEARCH_KINDS, SEARCH_TERMS, SearchStore, type SearchEntry } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const noSources = {
  source: () => Promise.reject(new Error('not read here')),
  allSources: () => {
    throw new Error('not read here');
  },
};

const BASE = Date.UTC(2026, 0, 1);
const entry = (id: string, terms: string[], ms: number, over: Partial<SearchEntry> = {}): SearchEntry => ({
  _id: id,
  kind: 'Post',
  terms,
  to: '@public',
  actorId: '@ann@s.test',
  at: new Date(BASE + ms),
  ...over,
});
const ids = async (search: SearchStore, term: string, kind?: SearchEntry['kind'], limit = 1000) =>
  (await search.withTerm(term, kind, limit)).map((e) => e._id);

/** A deterministic generator (the fuzz cases are the same at every run). */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** Characters FTS5's query syntax, tokenizers and SQL give a meaning to, and some that are none. */
const ODD = [
  '"',
  "'",
  '(',
  ')',
  '*',
  '^',
  ':',
  '-',
  '+',
  '#',
  '@',
  '.',
  ' ',
  '\t',
  '\\',
  '%',
  '_',
  ';',
  'é',
  '字',
  '😀',
  'AND',
  'OR',
  'NOT',
  'NEAR',
  'x',
  '1',
];
const oddString = (next: () => number, max = 8) =>
  Array.from({ length: 1 + Math.floor(next() * max) }, () => ODD[Math.floor(next() * ODD.length)]).join('');

/** Newest first, ties by id descending: the order every engine must answer in. */
const newest = (a: SearchEntry, b: SearchEntry) =>
  b.at.getTime() - a.at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

describe.each(engineFixtures())('SearchStore candidates on $name', (fx) => {
  let engine: Engine;
  let search: SearchStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([SEARCH_ENTRIES]);
    search = new SearchStore(engine, noSources);
    await search.prepare();
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('finds terms of any characters whole, and no part or neighbour of them', async () => {
    const odd = [
      'a"b',
      '#tag',
      'bob.smith@x.test',
      'x OR y',
      'NEAR(a b)',
      '*',
      '"',
      'a b',
      'ab',
      'é字😀',
      "o'k",
      'a:b',
      '-x',
      '^y',
      'AND',
    ];
    for (const [i, t] of odd.entries()) await search.upsert(entry(`post:odd${i}`, [t, 'oddset'], i));
    for (const [i, t] of odd.entries()) expect([t, await ids(search, t)]).toEqual([t, [`post:odd${i}`]]);
    for (const part of ['a', 'b', 'tag', 'bob', 'smith', 'x', 'y', 'OR', 'NEAR', 'é', 'o', 'k', 'and'])
      expect([part, await ids(search, part)]).toEqual([part, []]);
    expect(await ids(search, 'oddset')).toHaveLength(odd.length);
  });

  it('answers every fuzzed query without an error, only ever with entries holding the term', async () => {
    const next = random(22);
    const stored: SearchEntry[] = [];
    for (let i = 0; i < 40; i++) {
      const e = entry(`post:fz${i}`, [oddString(next), oddString(next)], 100 + i);
      stored.push(e);
      await search.upsert(e);
    }
    for (const e of stored) for (const t of e.terms) expect(await ids(search, t)).toContain(e._id);
    for (let i = 0; i < 300; i++) {
      const q = oddString(next, 12);
      const kind = i % 2 ? SEARCH_KINDS[i % SEARCH_KINDS.length] : undefined;
      const got = await search.withTerm(q, kind, 20);
      for (const e of got) expect(e.terms).toContain(q);
    }
  });

  it('answers newest first, ties by id descending, at every limit, across kinds and within one', async () => {
    const next = random(7);
    const all: SearchEntry[] = [];
    for (let i = 0; i < 36; i++) {
      const kind = SEARCH_KINDS[i % SEARCH_KINDS.length]!;
      const id = `${kind.toLowerCase()}:t${Math.floor(next() * 1e6).toString(36)}${i}`;
      // Four instants only: most entries tie with others on `at`.
      const e = entry(id, ['tie'], 1000 + Math.floor(next() * 4), { kind, actorId: `@a${i}` });
      all.push(e);
      await search.upsert(e);
    }
    all.sort(newest);
    for (const limit of [1, 2, 3, 5, 8, 13, 21, 36, 50])
      expect(await ids(search, 'tie', undefined, limit)).toEqual(all.slice(0, limit).map((e) => e._id));
    const groups = all.filter((e) => e.kind === 'Group');
    for (const limit of [1, 3, 7])
      expect(await ids(search, 'tie', 'Group', limit)).toEqual(groups.slice(0, limit).map((e) => e._id));
  });

  it('keeps the order and the limit over many entries, removals and rewrites included', async () => {
    const n = fx.name === 'sqlite' ? 3000 : 400;
    for (let i = 0; i < n; i++)
      await search.upsert(entry(`post:m${String(i).padStart(5, '0')}`, ['co', `m${i % 7}`], 5000 + i));
    const top = (k: number, from = n - 1) =>
      Array.from({ length: k }, (_, j) => `post:m${String(from - j).padStart(5, '0')}`);
    expect(await ids(search, 'co', undefined, 10)).toEqual(top(10));
    expect(await ids(search, 'co', 'Post', 10)).toEqual(top(10));
    for (let i = n - 5; i < n; i++) await search.remove(`post:m${String(i).padStart(5, '0')}`);
    expect(await ids(search, 'co', undefined, 10)).toEqual(top(10, n - 6));
    // A rewrite moving an entry to the front, and one taking the term away.
    await search.upsert(entry('post:m00000', ['co'], 5000 + n + 1));
    await search.upsert(entry(top(1, n - 6)[0]!, ['other'], 5000 + n - 6));
    expect(await ids(search, 'co', undefined, 3)).toEqual(['post:m00000', ...top(2, n - 7)]);
    expect(await ids(search, 'm3', undefined, 2)).toEqual(
      top(40, n - 7)
        .filter((id) => Number(id.slice(6)) % 7 === 3)
        .slice(0, 2),
    );
  });

  it('orders dates far in the past and the future', async () => {
    const dates = [Date.UTC(1000, 0, 1), -1, 0, 1, Date.UTC(1969, 11, 31, 23, 59, 59), Date.UTC(6000, 0, 1)];
    for (const [i, t] of dates.entries())
      await search.upsert({ ...entry(`post:far${i}`, ['far'], 0), at: new Date(t) });
    const expected = dates
      .map((t, i) => [t, `post:far${i}`] as const)
      .sort((a, b) => b[0] - a[0])
      .map(([, id]) => id);
    expect(await ids(search, 'far')).toEqual(expected);
    expect(await ids(search, 'far', undefined, 2)).toEqual(expected.slice(0, 2));
  });

  it('prepare: term rows rebuilt where an archive brought none, dropped where the engine has an index', async () => {
    await search.upsert(entry('post:pr', ['prep'], 9000));
    if (fx.name === 'mongodb') {
      // As after a restore of a SQLite backup: the entries, no rows.
      await engine.drop(SEARCH_TERMS.name);
      expect(await ids(search, 'prep')).toEqual([]);
      expect(await search.prepare()).toBe('rebuilt');
      expect(await ids(search, 'prep')).toEqual(['post:pr']);
      expect(await ids(search, 'co', undefined, 1)).toEqual(['post:m00000']);
      // A rebuild cut short is taken up again; one done is not repeated.
      await engine.collection(SEARCH_TERMS).insertOne({ _id: ' rebuilding' });
      expect(await search.prepare()).toBe('rebuilt');
      expect(await search.prepare()).toBe(null);
      // After a copy replaced the entries, rows the target held before go whatever they are.
      await engine
        .collection<{ _id: string; objectId: string }>(SEARCH_TERMS)
        .insertOne({ _id: 'post:gone 1 prep', objectId: 'post:gone' });
      expect(await search.prepare({ rebuild: true })).toBe('rebuilt');
      expect(await engine.collection(SEARCH_TERMS).findOne({ _id: 'post:gone 1 prep' })).toBeNull();
      expect(await ids(search, 'prep')).toEqual(['post:pr']);
    } else {
      // An older database (or an archive from MongoDB) brought term rows.
      await engine.ensure([SEARCH_TERMS]);
      await engine.collection(SEARCH_TERMS).insertOne({ _id: 'post:pr 1 prep' });
      expect(await search.prepare()).toBe('dropped');
      expect(await engine.names()).not.toContain(SEARCH_TERMS.name);
      expect(await search.prepare()).toBe(null);
      expect(await ids(search, 'prep')).toEqual(['post:pr']);
    }
  });
});
