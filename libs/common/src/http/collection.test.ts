import type { Request } from 'express';
import { collectionFor, orderedCollection, parsePaging, searchOf, setAll } from './collection';

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

describe('collectionFor', () => {
  const publicUrl = 'https://s.test';
  const req = (url: string, baseUrl: string, path: string) => ({ url, baseUrl, path }) as Request;

  test('root form at the request path, other query parameters kept', () => {
    const c = collectionFor(
      publicUrl,
      req('/?limit=2&type=Note', '/posts', '/'),
      parsePaging({ limit: '2' }),
      5,
      ['a', 'b'],
    );
    expect(c).toEqual({
      '@context': 'https://www.w3.org/ns/activitystreams',
      type: 'OrderedCollection',
      id: `${publicUrl}/posts?limit=2&type=Note`,
      totalItems: 5,
      first: `${publicUrl}/posts?limit=2&type=Note&page=1`,
      last: `${publicUrl}/posts?limit=2&type=Note&page=3`,
      orderedItems: ['a', 'b'],
    });
  });

  test('page form on a sub-path drops page from the kept query', () => {
    const c = collectionFor(
      publicUrl,
      req('/p1/replies?page=2&limit=2&sort=top', '/posts', '/p1/replies'),
      parsePaging({ page: '2', limit: '2' }),
      5,
      [3, 4],
    );
    expect(c).toEqual({
      '@context': 'https://www.w3.org/ns/activitystreams',
      type: 'OrderedCollectionPage',
      id: `${publicUrl}/posts/p1/replies?limit=2&sort=top&page=2`,
      partOf: `${publicUrl}/posts/p1/replies?limit=2&sort=top`,
      orderedItems: [3, 4],
      totalPages: 3,
      totalItems: 5,
      currentPage: 2,
      next: `${publicUrl}/posts/p1/replies?limit=2&sort=top&page=3`,
      prev: `${publicUrl}/posts/p1/replies?limit=2&sort=top&page=1`,
    });
  });

  test('same body as orderedCollection with the request base and query', () => {
    const r = req('/alice/posts?page=1&since=2024-01-01', '/users', '/alice/posts');
    const paging = parsePaging({ page: '1' });
    expect(searchOf(r).toString()).toBe('page=1&since=2024-01-01');
    expect(collectionFor(publicUrl, r, paging, 0, [])).toEqual(
      orderedCollection({
        base: `${publicUrl}/users/alice/posts`,
        search: searchOf(r),
        paging,
        total: 0,
        items: [],
      }),
    );
  });
});

describe('setAll', () => {
  test('sets every field of the body, in order', () => {
    const calls: Array<[string, unknown]> = [];
    setAll((k, v) => calls.push([k, v]), {
      type: 'OrderedCollection',
      totalItems: 0,
      orderedItems: [],
      error: null,
    });
    expect(calls).toEqual([
      ['type', 'OrderedCollection'],
      ['totalItems', 0],
      ['orderedItems', []],
      ['error', null],
    ]);
  });

  test('an empty body sets nothing', () => {
    const set = jest.fn();
    setAll(set, {});
    expect(set).not.toHaveBeenCalled();
  });
});
