/**
 * SQLite opened for exclusive use (an offline migration, `npm run migrate`): refused while
 * another connection has the file open, even idle (a server between requests), and while it
 * holds the file no other connection can open it (a server started meanwhile fails to start);
 * once it is closed the file opens as usual.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseInUse, openSqlite } from '@agora/common/db/engine';

const dir = mkdtempSync(join(tmpdir(), 'exclusive-'));
const path = join(dir, 'agora.db');
const SPEC = { name: 'things', indexes: [] };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('refused while another connection has the file open, idle or not', async () => {
  const server = openSqlite({ path });
  await server.ensure([SPEC]);
  await server.collection(SPEC).insertOne({ _id: 'a' });
  expect(() => openSqlite({ path, exclusive: true, busyTimeoutMs: 100 })).toThrow(DatabaseInUse);
  await server.close();
});

test('while held, nobody else opens the file; once closed, everyone does', async () => {
  const migration = openSqlite({ path, exclusive: true, busyTimeoutMs: 100 });
  expect(await migration.collection(SPEC).count({})).toBe(1);
  expect(() => openSqlite({ path, busyTimeoutMs: 100 })).toThrow(/database is locked/);
  await migration.close();
  const server = openSqlite({ path, busyTimeoutMs: 100 });
  expect(await server.collection(SPEC).count({})).toBe(1);
  await server.close();
});
