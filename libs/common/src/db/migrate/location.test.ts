import { describeLocation, parseLocation, sameLocation } from './location';

test('a SQLite file is `sqlite:<path>` or a plain path, relative to the given folder', () => {
  expect(parseLocation('sqlite:data/agora.db', '/srv/agora')).toEqual({
    kind: 'sqlite',
    path: '/srv/agora/data/agora.db',
  });
  expect(parseLocation('./agora.db', '/home/me')).toEqual({ kind: 'sqlite', path: '/home/me/agora.db' });
  expect(parseLocation('sqlite:/var/lib/agora/agora.db', '/x')).toEqual({
    kind: 'sqlite',
    path: '/var/lib/agora/agora.db',
  });
});

test('a MongoDB URL is kept as given; any other URL, an empty one or a bare `sqlite:` is refused', () => {
  expect(parseLocation('mongodb://mongo:27017/agora')).toEqual({
    kind: 'mongodb',
    url: 'mongodb://mongo:27017/agora',
  });
  expect(parseLocation('mongodb+srv://u:p@cluster.example/agora').kind).toBe('mongodb');
  expect(() => parseLocation('postgres://db/agora')).toThrow('not a SQLite file or a mongodb:// URL');
  expect(() => parseLocation('  ')).toThrow('an empty location');
  expect(() => parseLocation('sqlite:')).toThrow('sqlite: needs a file path');
});

test('messages never show a password', () => {
  const url = 'mongodb://agora:s3cret@db1:27017,db2:27017/agora?authSource=admin';
  expect(describeLocation(parseLocation(url))).toBe(
    'mongodb://agora:***@db1:27017,db2:27017/agora?authSource=admin',
  );
  expect(describeLocation(parseLocation('mongodb://db/agora'))).toBe('mongodb://db/agora');
});

test('the same database twice is recognised', () => {
  expect(sameLocation(parseLocation('a.db', '/d'), parseLocation('sqlite:/d/a.db'))).toBe(true);
  expect(sameLocation(parseLocation('a.db', '/d'), parseLocation('mongodb://h/a'))).toBe(false);
  expect(sameLocation(parseLocation('mongodb://h/a'), parseLocation('mongodb://h/b'))).toBe(false);
});
