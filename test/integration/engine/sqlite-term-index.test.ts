/**
 * SQLite's term index (port.ts `TermIndexSpec`, engine/sqlite/term-index.ts, ADR 0033), at the
 * engine: kept in step by every kind of write (insert, update, delete, clear, upsert); filled
 * from the table when declared on one that holds documents (an older database), dropped when no
 * longer declared; moved by a rename and removed by a drop with its collection (a restore's
 * staging and swap), and never listed as a collection (backups, copies). MongoDB offers none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import {
  openMongo,
  openSqlite,
  PortUsageError,
  type CollectionSpec,
  type Engine,
} from '@agora/common/db/engine';
import { mongoUrlFor, uniqueName } from '../../harness/env';

type Row = { _id: string; kind: string; terms: string[]; at: Date; to?: string };

const dir = mkdtempSync(join(tmpdir(), 'term-index-'));
const file = join(dir, 'agora.db');
let engine: Engine;

const TERMS = { terms: 'terms', within: 'kind', newest: 'at', serves: 'test' };
const plain = (name: string): CollectionSpec => ({ name, indexes: [], dates: ['at'] });
const indexed = (name: string): CollectionSpec => ({ ...plain(name), termIndex: TERMS });
const row = (id: string, terms: string[], s: number, kind = 'K'): Row => ({
  _id: id,
  kind,
  terms,
  at: new Date(Date.UTC(2026, 0, 1) + s * 1000),
});
const find = (spec: CollectionSpec, term: string, within = ['K'], limit = 100) =>
  engine.findByTerm!(spec, { term, within, limit });

/** Every table of the file, FTS5's included (a second connection: the engine lists collections only). */
function tables(): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    return rows.map((r) => String(r.name));
  } finally {
    db.close();
  }
}

beforeAll(() => {
  engine = openSqlite({ path: file, checkIndexes: true });
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

test('every kind of write keeps the index in step with the documents', async () => {
  const spec = indexed('t_writes');
  await engine.ensure([spec]);
  const c = engine.collection<Row>(spec);
  await c.insertMany([row('a', ['x', 'y'], 1), row('b', ['x'], 2), row('c', ['x'], 3, 'L')]);
  expect(await find(spec, 'x')).toEqual(['b', 'a']);
  expect(await find(spec, 'x', ['K', 'L'])).toEqual(['c', 'b', 'a']);
  await c.updateOne({ _id: 'a' }, { $set: { at: new Date(Date.UTC(2026, 0, 2)) } });
  expect(await find(spec, 'x')).toEqual(['a', 'b']);
  await c.updateOne({ _id: 'a' }, { $set: { to: '@public' } });
  expect(await find(spec, 'y')).toEqual(['a']);
  await c.updateOne({ _id: 'a' }, { $set: { terms: ['z'] } });
  expect(await find(spec, 'y')).toEqual([]);
  expect(await find(spec, 'z')).toEqual(['a']);
  await c.updateOne({ _id: 'd' }, { $set: { kind: 'K', terms: ['x'], at: new Date(0) } }, { upsert: true });
  expect(await find(spec, 'x')).toEqual(['b', 'd']);
  await c.deleteOne({ _id: 'b' });
  await c.deleteMany({ _id: { $in: ['d'] } });
  expect(await find(spec, 'x')).toEqual([]);
  expect(await find(spec, 'x', ['L'])).toEqual(['c']);
  await c.clear();
  expect(await find(spec, 'x', ['L'])).toEqual([]);
});

test('declared on a table holding documents, it is filled; no longer declared, it is dropped', async () => {
  await engine.ensure([plain('t_later')]);
  const c = engine.collection<Row>(plain('t_later'));
  await c.insertMany([row('p', ['old'], 5), row('q', ['old'], 5), row('r', ['old'], 4)]);
  await expect(find(plain('t_later'), 'old')).rejects.toThrow(PortUsageError);
  await engine.ensure([indexed('t_later')]);
  expect(await find(indexed('t_later'), 'old')).toEqual(['q', 'p', 'r']);
  // Slots of one millisecond filled at once, then one more written through the trigger.
  await engine.collection<Row>(indexed('t_later')).insertOne(row('s', ['old'], 5));
  expect(await find(indexed('t_later'), 'old', ['K'], 2)).toEqual(['s', 'q']);
  expect(tables()).toContain('t_later$terms');
  await engine.ensure([plain('t_later')]);
  expect(tables().filter((t) => t.startsWith('t_later'))).toEqual(['t_later']);
});

test('a rename moves the index with its collection, a drop removes both; neither is listed', async () => {
  const staging = indexed('__restore_x_t_swap');
  await engine.ensure([staging]);
  await engine.collection<Row>(staging).insertOne(row('n', ['swap'], 1));
  await engine.rename(staging.name, 't_swap');
  expect(await find(indexed('t_swap'), 'swap')).toEqual(['n']);
  // Its triggers follow it: a write under the new name reaches the moved index.
  await engine.collection<Row>(indexed('t_swap')).insertOne(row('o', ['swap'], 2));
  await engine.ensure([indexed('t_swap')]);
  await engine.collection<Row>(indexed('t_swap')).insertOne(row('p', ['swap'], 3));
  expect(await find(indexed('t_swap'), 'swap')).toEqual(['p', 'o', 'n']);
  const names = await engine.names();
  expect(names).toContain('t_swap');
  expect(names.filter((n) => n.includes('$'))).toEqual([]);
  await engine.drop('t_swap');
  expect(tables().filter((t) => t.startsWith('t_swap') || t.startsWith('__restore_x_t_swap'))).toEqual([]);
});

test('MongoDB offers no term index: the store keeps its own rows there', async () => {
  const url = mongoUrlFor(uniqueName('terms'));
  const mongo = await openMongo({ url, checkIndexes: true });
  try {
    expect('findByTerm' in mongo).toBe(false);
  } finally {
    await mongo.close();
  }
});
