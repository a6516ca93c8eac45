/**
 * Standalone with no MONGO_URL (the embedded default, what `npm start` runs): SQLite in this
 * process (node:sqlite, no child process) in `DATA_DIR/agora.db`, in WAL mode, with a table per
 * store collection and every declared index (ADR 0013); the data and indexes survive a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loadConfig, type Config } from '@agora/common/config';
import { STORE_SPECS } from '@agora/common/db';
import { startStandalone, type Standalone } from '@agora/standalone';
import { client, ADMIN } from '../harness/standalone';

let dataDir: string;
let config: Config;
let server: Standalone | undefined;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'agora-embedded-'));
  config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      DOMAIN: 'social.test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      PORT: '0',
      HOST: '127.0.0.1',
    },
  );
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every table of the standalone database and the indexes declared on them (not SQLite's own). */
function tablesAndIndexes(): { tables: string[]; indexes: string[]; journal: string } {
  const db = new DatabaseSync(join(dataDir, 'agora.db'), { readOnly: true });
  try {
    const all = (type: string) =>
      (
        db.prepare('SELECT name FROM sqlite_master WHERE type = ? ORDER BY name').all(type) as {
          name: string;
        }[]
      )
        .map((r) => r.name)
        .filter((n) => !n.startsWith('sqlite_'));
    const journal = (db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode;
    return { tables: all('table'), indexes: all('index'), journal };
  } finally {
    db.close();
  }
}

test('the embedded database is SQLite in DATA_DIR with every store collection and index, across a restart', async () => {
  server = await startStandalone(config);
  const first = tablesAndIndexes();
  // A term index is an FTS5 table and its shadow tables (engine/sqlite/term-index.ts, ADR 0033).
  const termTables = STORE_SPECS.filter((s) => s.termIndex).flatMap((s) =>
    ['', '_config', '_content', '_data', '_idx'].map((part) => `${s.name}$terms${part}`),
  );
  expect(termTables.length).toBeGreaterThan(0);
  expect(first.tables).toEqual([...STORE_SPECS.map((s) => s.name), ...termTables].sort());
  expect(first.indexes.length).toBe(STORE_SPECS.reduce((n, s) => n + s.indexes.length, 0));
  expect(first.journal).toBe('wal');

  const api = client(server.url);
  const reg = await api.post<{ user: { id: string } }>('/register', {
    username: 'embedded_user',
    password: 'password123',
  });
  expect(reg.status).toBe(201);
  const login = await api.post<{ token: string }>('/auth/login', {
    username: 'embedded_user',
    password: 'password123',
  });
  expect(login.status).toBe(200);
  const user = await api.get<{ item: { id: string } }>(`/users/${encodeURIComponent(reg.body.user.id)}`, {
    token: login.body.token,
  });
  expect(user.status).toBe(200);
  expect(user.body.item.id).toBe(reg.body.user.id);

  await server.close();
  server = await startStandalone(config);
  const again = client(server.url);
  const relog = await again.post<{ token: string }>('/auth/login', {
    username: 'embedded_user',
    password: 'password123',
  });
  expect(relog.status).toBe(200);
  expect(tablesAndIndexes()).toEqual(first);
});
