import { loadEJSON, type EJSON } from '@agora/common/db';
import { decodeDocument as decode, encodeDocument as encode } from './codec';

let EJSON: EJSON;
beforeAll(async () => {
  EJSON = await loadEJSON();
});
const encodeDocument = (doc: Parameters<typeof encode>[1]) => encode(EJSON, doc);
const decodeDocument = (line: string, version: number) => decode(EJSON, line, version);

/** Keys Extended JSON reads as type wrappers, as an admin's JSON setting may hold them. */
const wrapperLookalikes = {
  _id: 'setting:x',
  value: {
    $date: 'next week',
    nested: [{ $numberLong: '12' }, { $oid: 'not an id' }, { $numberInt: 'x', other: 1 }],
    $$already: 'two dollars',
    $regex: 'a+',
    $options: 'i',
    plain: { $ref: '#/definitions/a', $id: 'b' },
  },
};

test('keys that look like Extended JSON wrappers come back as they were', () => {
  const line = encodeDocument(wrapperLookalikes);
  expect(line).not.toContain('\n');
  expect(decodeDocument(line, 3)).toStrictEqual(wrapperLookalikes);
});

test('without the escape (what version 2 wrote) such data came back changed or not at all', () => {
  const v2 = (doc: object) => EJSON.stringify(doc, { relaxed: true });
  expect(decodeDocument(v2({ _id: 'a', v: { $numberLong: '12' } }), 2)).toEqual({ _id: 'a', v: 12 });
  expect(() => decodeDocument(v2({ _id: 'a', v: { $oid: 'x' } }), 2)).toThrow();
});

test('dates, numbers, nulls, arrays and nested objects keep their types; a version 2 line reads as before', () => {
  const doc = {
    _id: 'p1',
    at: new Date('2026-02-28T23:59:59.999Z'),
    old: new Date('1969-07-20T20:17:40.000Z'),
    n: 7,
    big: 2 ** 40 + 1,
    neg: -3.5,
    none: null,
    list: [1, 'two', null, { three: [new Date(0)] }],
    empty: {},
    emptyList: [],
    text: 'line\nbreak "quoted" \u2028 \u{1F600}',
  };
  const back = decodeDocument(encodeDocument(doc), 3);
  expect(back).toStrictEqual(doc);
  expect(back.at).toBeInstanceOf(Date);
  expect(decodeDocument(EJSON.stringify(doc, { relaxed: true }), 2)).toStrictEqual(doc);
});
