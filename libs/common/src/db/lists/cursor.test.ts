import { AppError } from '../../errors';
import {
  compareIds,
  decodeCursor,
  encodeCursor,
  isOlder,
  newestFirst,
  oldestFirst,
  parseBefore,
  type Place,
} from './cursor';

const T = Date.parse('2026-03-01T12:00:00.000Z');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

describe('the cursor codec', () => {
  test('a place goes out opaque (base64url) and comes back whole', () => {
    const places: Place[] = [
      { at: T, id: 'post:0123456789abcdef01234567@social.test' },
      { at: 0, id: 'https://x.example/a.b/c?d=1#e' },
      { at: T, id: 'ünïcödé 😀 .' },
    ];
    for (const p of places) {
      const c = encodeCursor(p);
      expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(c)).toEqual(p);
      expect(parseBefore(c)).toEqual(p);
    }
  });

  test('anything the encoder cannot have made decodes to nothing', () => {
    const good = encodeCursor({ at: T, id: 'post:abc@social.test' });
    const bad = [
      '',
      'not a cursor',
      `${good}=`,
      good.slice(0, -1),
      `${good}+`,
      b64('abc.def'),
      b64(`${T}`),
      b64(`${T}.`),
      b64(`-5.post`),
      b64(`0${T}.post`),
      b64(`${T}.po\u0000st`),
      b64(`${T}.post\n`),
      b64(`99999999999999999.post`),
      b64(`8640000000000001.post`),
      b64(`${T}.${'p'.repeat(2049)}`),
      Buffer.from([0x31, 0x2e, 0xff, 0xfe]).toString('base64url'),
      'A'.repeat(5000),
    ];
    for (const raw of bad) expect([raw, decodeCursor(raw)]).toEqual([raw, undefined]);
  });
});

describe('parseBefore', () => {
  test('absent or empty: no cursor', () => {
    expect(parseBefore(undefined)).toBeUndefined();
    expect(parseBefore('')).toBeUndefined();
  });

  test('an ISO time stands before every id of its millisecond', () => {
    expect(parseBefore('2026-03-01T12:00:00.000Z')).toEqual({ at: T, id: '' });
    expect(parseBefore('2026-03-01T13:00:00+01:00')).toEqual({ at: T, id: '' });
    expect(parseBefore('2026-03-01')).toEqual({ at: Date.parse('2026-03-01'), id: '' });
  });

  test('malformed values are a 400 that says what is accepted, never a 500', () => {
    const bad: unknown[] = [
      'yesterday',
      '2026-13-45T99:99:99Z',
      'MTIz',
      b64('abc.def'),
      '%00',
      'x'.repeat(3000),
      ['a', 'b'],
      { $gt: '' },
      7,
    ];
    for (const raw of bad) {
      let thrown: unknown;
      try {
        parseBefore(raw);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(AppError);
      expect((thrown as AppError).status).toBe(400);
      expect((thrown as AppError).message).toBe(
        'before must be a cursor from nextCursor or an ISO 8601 time',
      );
    }
  });
});

describe('the order', () => {
  test('ids compare by code point (UTF-8 bytes), as MongoDB and SQLite compare them', () => {
    // U+FFFF < U+1F600 by code point; JavaScript's `<` says the opposite (code units).
    expect(compareIds('\uffff', '😀')).toBeLessThan(0);
    expect('\uffff' < '😀').toBe(false);
    const ids = ['b', 'a', '😀', '\uffff', 'ab', '', 'é'];
    const byBytes = [...ids].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...ids].sort(compareIds)).toEqual(byBytes);
    expect(byBytes).toEqual(['', 'a', 'ab', 'b', 'é', '\uffff', '😀']);
  });

  test('newest first: later time first, then the greater id; oldest first is its reverse', () => {
    const entries = [
      { at: T, id: 'b' },
      { at: T + 1, id: 'a' },
      { at: T, id: 'c' },
      { at: T - 1, id: 'z' },
      { at: new Date(T), id: 'a' },
    ];
    const newest = [...entries].sort(newestFirst).map((e) => e.id);
    expect(newest).toEqual(['a', 'c', 'b', 'a', 'z']);
    expect([...entries].sort(oldestFirst).map((e) => e.id)).toEqual([...newest].reverse());
  });

  test('strictly older than a cursor: an older time, or the same millisecond and a smaller id', () => {
    const cursor = { at: T, id: 'm' };
    expect(isOlder({ at: T - 1, id: 'z' }, cursor)).toBe(true);
    expect(isOlder({ at: new Date(T), id: 'l' }, cursor)).toBe(true);
    expect(isOlder({ at: T, id: 'm' }, cursor)).toBe(false);
    expect(isOlder({ at: T, id: 'n' }, cursor)).toBe(false);
    expect(isOlder({ at: T + 1, id: 'a' }, cursor)).toBe(false);
    // An ISO time's place: nothing of its own millisecond is older.
    expect(isOlder({ at: T, id: 'a' }, { at: T, id: '' })).toBe(false);
    expect(isOlder({ at: T - 1, id: 'a' }, { at: T, id: '' })).toBe(true);
  });
});
