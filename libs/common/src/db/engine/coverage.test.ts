import { isCovered } from './coverage';
import type { CollectionSpec } from './port';

const spec: CollectionSpec = {
  name: 'posts',
  indexes: [
    {
      fields: [
        ['list', 1],
        ['at', -1],
        ['_id', -1],
      ],
      serves: 'a list newest first',
    },
    {
      fields: [
        ['actorId', 1],
        ['deletedAt', 1],
        ['at', -1],
      ],
      serves: "an author's live posts",
    },
    { fields: [['slug', 1]], unique: true, serves: 'by slug' },
  ],
};

test('equality, then the sort in either direction, then the other fields', () => {
  expect(
    isCovered(spec, { list: 'l' }, [
      ['at', -1],
      ['_id', -1],
    ]),
  ).toBe(true);
  expect(
    isCovered(spec, { list: 'l' }, [
      ['at', 1],
      ['_id', 1],
    ]),
  ).toBe(true);
  expect(isCovered(spec, { list: { $in: ['a', 'b'] }, at: { $lt: new Date() } }, [['at', -1]])).toBe(true);
  expect(isCovered(spec, { actorId: 'a', deletedAt: null }, [['at', -1]])).toBe(true);
  expect(isCovered(spec, { deletedAt: null, actorId: 'a' })).toBe(true);
});

test('not covered: a sort that mixes directions, a field outside the index, a sort not after the equalities', () => {
  expect(
    isCovered(spec, { list: 'l' }, [
      ['at', -1],
      ['_id', 1],
    ]),
  ).toBe(false);
  expect(isCovered(spec, { list: 'l', tag: 'x' })).toBe(false);
  expect(isCovered(spec, { actorId: 'a' }, [['at', -1]])).toBe(false);
  expect(isCovered(spec, {}, [['at', -1]])).toBe(false);
  expect(isCovered(spec, { at: { $gt: 1 } })).toBe(false);
});

test('the primary key and whole-collection reads', () => {
  expect(isCovered(spec, { _id: 'x', tag: 'y' })).toBe(true);
  expect(isCovered(spec, {})).toBe(true);
  expect(isCovered(spec, { _id: { $gt: 'a' } }, [['_id', 1]])).toBe(true);
  expect(isCovered(spec, { slug: 's' })).toBe(true);
});
