import { orderedCollection, parsePaging } from './collection';

describe('parsePaging (spec 1.5)', () => {
  test('defaults and bounds', () => {
    expect(parsePaging({})).toEqual({ page: 1, limit: 20, skip: 0, explicit: false });
    expect(parsePaging({ page: '0', limit: '1000' })).toMatchObject({ page: 1, limit: 100 });
    expect(parsePaging({ page: '3', limit: '0' })).toMatchObject({
      page: 3,
      limit: 1,
      skip: 2,
      explicit: true,
    });
    expect(parsePaging({ page: 'abc', limit: '-5' })).toMatchObject({ page: 1, limit: 1, explicit: false });
    expect(parsePaging({ limit: '600' }, { maxLimit: 500 }).limit).toBe(500);
  });
});

describe('orderedCollection', () => {
  const base = 'https://s.test/users';
  test('root form without an explicit page', () => {
    const c = orderedCollection({ base, paging: parsePaging({ limit: '2' }), total: 5, items: [1, 2] });
    expect(c).toEqual({
      '@context': 'https://www.w3.org/ns/activitystreams',
      type: 'OrderedCollection',
      id: base,
      totalItems: 5,
      first: `${base}?page=1`,
      last: `${base}?page=3`,
      orderedItems: [1, 2],
    });
  });

  test('page form with next/prev and the other query parameters kept', () => {
    const c = orderedCollection({
      base,
      search: new URLSearchParams('limit=2&sort=reacts&page=2'),
      paging: parsePaging({ page: '2', limit: '2' }),
      total: 5,
      items: [3, 4],
    });
    expect(c).toMatchObject({
      type: 'OrderedCollectionPage',
      currentPage: 2,
      totalPages: 3,
      totalItems: 5,
      partOf: `${base}?limit=2&sort=reacts`,
    });
    expect(c).toHaveProperty('next', `${base}?limit=2&sort=reacts&page=3`);
    expect(c).toHaveProperty('prev', `${base}?limit=2&sort=reacts&page=1`);
  });

  test('a single-page result is the root form even with page=1', () => {
    expect(orderedCollection({ base, paging: parsePaging({ page: '1' }), total: 1, items: ['x'] }).type).toBe(
      'OrderedCollection',
    );
  });
});
