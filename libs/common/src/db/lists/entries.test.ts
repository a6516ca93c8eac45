import { packEntry, unpackEntry } from './entries';

const at = new Date('2026-01-02T03:04:05.678Z');

test('an entry packs to one string and reads back whole, with or without its author', () => {
  const withBy = { id: 'https://a.example/posts/1', at, by: 'https://a.example/users/ann' };
  expect(typeof packEntry(withBy)).toBe('string');
  expect(unpackEntry(packEntry(withBy))).toEqual(withBy);
  expect(unpackEntry(packEntry({ id: 'p|2', at }))).toEqual({ id: 'p|2', at });
});

test('ids holding separators and quotes survive packing', () => {
  const id = 'https://x.example/a b,"c"|[d]';
  expect(unpackEntry(packEntry({ id, at, by: 'u"1' }))).toEqual({ id, at, by: 'u"1' });
});

test('subdocuments of buckets written before read as the same entries', () => {
  expect(unpackEntry({ id: 'p1', at, by: 'u1' })).toEqual({ id: 'p1', at, by: 'u1' });
  expect(unpackEntry({ id: 'p1', at: at.toISOString() })).toEqual({ id: 'p1', at });
});

test('elements no form can read are skipped, not thrown', () => {
  for (const raw of ['not json', '{"id":1}', '[1,2]', '["p"]', null, 7, { id: 'p' }, { at }])
    expect(unpackEntry(raw)).toBeUndefined();
});
