/**
 * Standalone with no MONGO_URL (the embedded default, what `npm start` runs): it spawns FerretDB
 * with SQLite under DATA_DIR and, once boot has created every collection, every FerretDB table
 * carries the `_id` expression index FerretDB's pushdown can use (ADR 0004); a restart keeps them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loadConfig, type Config } from '@agora/common/config';
import { startStandalone, type Standalone } from '@agora/standalone';
import { client, ADMIN } from '../harness/standalone';
import { testEnv } from '../harness/env';

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
      FERRETDB_BIN: testEnv.ferretdbBin,
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

/** Every FerretDB table of the standalone database, with the `_id` indexes on it. */
function tablesAndIndexes(): { tables: string[]; indexed: string[] } {
  const db = new DatabaseSync(join(dataDir, 'ferretdb', 'agora.sqlite'), { readOnly: true });
  try {
    const tables = (
      db.prepare('SELECT table_name AS t FROM _ferretdb_collections').all() as { t: string }[]
    ).map((r) => r.t);
    const indexed = (
      db
        .prepare(
          `SELECT tbl_name AS t FROM sqlite_master WHERE type = 'index' AND name = 'agora_id_' || tbl_name`,
        )
        .all() as {
        t: string;
      }[]
    ).map((r) => r.t);
    return { tables: tables.sort(), indexed: indexed.sort() };
  } finally {
    db.close();
  }
}

test('the embedded database gets its _id indexes at boot and works through the API, across a restart', async () => {
  server = await startStandalone(config);
  expect(server.ferret).toBeDefined();
  const first = tablesAndIndexes();
  expect(first.tables.length).toBeGreaterThanOrEqual(10); // every model's collection
  expect(first.indexed).toEqual(first.tables);

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
  expect(tablesAndIndexes().indexed).toEqual(first.tables);
});
