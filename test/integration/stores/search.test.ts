/**
 * SearchStore on both engines (issue 22, ADR 0008), index coverage checked: entries found by
 * any of their terms, newest first (ties by id, as before the move), within one kind; a rewrite
 * drops the terms an object lost; removals, by object and by account; concurrent rewrites of one
 * object leave one of them whole, found by each of its terms and by no other. Term rows are kept
 * only on MongoDB (SQLite's FTS5 index replaces them, ADR 0033), an object's rows neighbours in
 * key order. A search of every kind merges the kinds newest first.
 */
import { SEARCH_ENTRIES, SEARCH_TERMS, SearchStore, type SearchEntry } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

/** The index alone: these cases never read the objects behind it. */
const noSources = {
  source: () => Promise.reject(new Error('not read here')),
  allSources: () => {
    throw new Error('not read here');
  },
};

const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);
const entry = (id: string, terms: string[], s: number, over: Partial<SearchEntry> = {}): SearchEntry => ({
  _id: id,
  kind: 'Post',
  terms,
  to: '@public',
  actorId: '@ann@s.test',
  at: at(s),
  ...over,
});
const found = async (search: SearchStore, term: string, kind?: SearchEntry['kind'], limit = 50) =>
  (await search.withTerm(term, kind, limit)).map((e) => e._id);

describe.each(engineFixtures())('SearchStore on $name', (fx) => {
  let engine: Engine;
  let search: SearchStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([SEARCH_ENTRIES, SEARCH_TERMS]);
    search = new SearchStore(engine, noSources);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('is empty until something is indexed', async () => {
    expect(await search.isEmpty()).toBe(true);
    await search.upsert(entry('post:1', ['ph', 'pho', 'photo'], 10));
    expect(await search.isEmpty()).toBe(false);
  });

  it('finds entries by any term, newest first, ties by id descending, within one kind', async () => {
    await search.upsert(entry('post:2', ['ph', 'phi'], 20));
    await search.upsert(entry('post:3', ['ph'], 20));
    await search.upsert(entry('@bob', ['ph', 'bo', 'bob'], 5, { kind: 'User', actorId: '@bob' }));
    expect(await found(search, 'ph')).toEqual(['post:3', 'post:2', 'post:1', '@bob']);
    expect(await found(search, 'ph', 'User')).toEqual(['@bob']);
    expect(await found(search, 'ph', undefined, 2)).toEqual(['post:3', 'post:2']);
    expect(await found(search, 'photo')).toEqual(['post:1']);
    expect(await found(search, 'nothing')).toEqual([]);
    const [first] = await search.withTerm('photo', undefined, 1);
    expect(first).toEqual(entry('post:1', ['ph', 'pho', 'photo'], 10));
  });

  it('a rewrite drops the terms the object lost, and keeps a changed audience', async () => {
    await search.upsert(entry('post:1', ['ph', 'phi', 'philosophy'], 10));
    expect(await found(search, 'photo')).toEqual([]);
    expect(await found(search, 'philosophy')).toEqual(['post:1']);
    await search.upsert(entry('post:1', ['ph', 'phi', 'philosophy'], 10, { to: '@s.test' }));
    expect((await search.withTerm('philosophy', undefined, 5))[0]?.to).toBe('@s.test');
  });

  it('removes one object, and the withdrawn kinds of an account (groups stay)', async () => {
    await search.remove('post:2');
    expect(await found(search, 'phi')).toEqual(['post:1']);
    await search.upsert(entry('group:1', ['ph'], 30, { kind: 'Group' }));
    await search.removeByActor('@ann@s.test');
    expect(await found(search, 'ph')).toEqual(['group:1', '@bob']);
  });

  it('of ten concurrent rewrites of one object one stands whole, found by its terms only', async () => {
    const versions = Array.from({ length: 10 }, (_, i) => [`common`, `only${i}`]);
    await Promise.all(versions.map((terms) => search.upsert(entry('post:race', terms, 40))));
    expect(await found(search, 'common')).toEqual(['post:race']);
    const hits = await Promise.all(versions.map(([, own]) => found(search, own!)));
    expect(hits.filter((h) => h.length === 1)).toHaveLength(1);
    expect(hits.filter((h) => h.length === 0)).toHaveLength(9);
    // The rows of every replaced or losing revision are gone: none takes a candidate slot from
    // an older object holding the term.
    await search.upsert(entry('post:older', ['common'], 39));
    expect(await found(search, 'common', undefined, 2)).toEqual(['post:race', 'post:older']);
    await search.remove('post:race');
    expect(await found(search, 'common')).toEqual(['post:older']);
  });

  it('a remove racing an upsert leaves either no entry or a whole one', async () => {
    await Promise.all([search.upsert(entry('post:r', ['racy'], 50)), search.remove('post:r')]);
    const hits = await found(search, 'racy');
    expect([[], ['post:r']]).toContainEqual(hits);
  });

  it("keeps term rows only without the engine's term index, an object's rows next to each other", async () => {
    // A new post's rows then land in one or two pages of the key's index, not one per term.
    await search.upsert(entry('post:k1', ['ka', 'kay', 'zz'], 60));
    await search.upsert(entry('post:k2', ['ka', 'kay', 'zz'], 61));
    const owners: string[] = [];
    for await (const page of engine.collection<{ _id: string; objectId: string }>(SEARCH_TERMS).scan())
      for (const row of page) if (owners.at(-1) !== row.objectId) owners.push(row.objectId);
    expect(new Set(owners).size).toBe(owners.length);
    // SQLite's FTS5 index replaces the rows (ADR 0033); MongoDB keeps them.
    expect(owners.includes('post:k1')).toBe(fx.name === 'mongodb');
    expect('findByTerm' in engine).toBe(fx.name === 'sqlite');
    expect(await found(search, 'kay')).toEqual(['post:k2', 'post:k1']);
  });

  it('a search of every kind interleaves the kinds newest first, the limit across all of them', async () => {
    // Read kind by kind (one index per term row fewer to write) and merged.
    await search.upsert(entry('post:m1', ['mix'], 70));
    await search.upsert(entry('@mia', ['mix'], 71, { kind: 'User', actorId: '@mia' }));
    await search.upsert(entry('group:m', ['mix'], 72, { kind: 'Group' }));
    await search.upsert(entry('post:m2', ['mix'], 73));
    await search.upsert(entry('page:m', ['mix'], 71, { kind: 'Page' }));
    expect(await found(search, 'mix')).toEqual(['post:m2', 'group:m', 'page:m', '@mia', 'post:m1']);
    expect(await found(search, 'mix', undefined, 3)).toEqual(['post:m2', 'group:m', 'page:m']);
    expect(await found(search, 'mix', 'Post', 1)).toEqual(['post:m2']);
  });
});
