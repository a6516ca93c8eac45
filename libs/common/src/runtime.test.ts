import { loadConfig } from './config';
import { createRuntime, sqlitePathOf } from './runtime';

test('a service run on its own refuses to start without a named database', async () => {
  const config = loadConfig({}, { NODE_ENV: 'test', DOMAIN: 'alone.test', LOG_LEVEL: 'silent' });
  await expect(createRuntime('social', config)).rejects.toThrow(/needs MONGO_URL \(MongoDB\) or SQLITE_PATH/);
});

test('the SQLite file: SQLITE_PATH, else agora.db in DATA_DIR', () => {
  const base = { NODE_ENV: 'test', DOMAIN: 'alone.test', DATA_DIR: '/srv/agora' };
  expect(sqlitePathOf(loadConfig({}, base))).toBe('/srv/agora/agora.db');
  expect(sqlitePathOf(loadConfig({}, { ...base, SQLITE_PATH: '/var/lib/agora.db' }))).toBe(
    '/var/lib/agora.db',
  );
});
