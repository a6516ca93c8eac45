/**
 * The engines the conformance suite runs on (the model: Fedify's adapter suites): SQLite through
 * node:sqlite in a file of its own, and the MongoDB adapter on the test run's FerretDB in a
 * database of its own. Both check index coverage, so a case whose query no declared index
 * serves fails on either.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMongo, openSqlite, type CollectionSpec, type Engine } from '@agora/common/db/engine';
import { mongoUrlFor, uniqueName } from '../../harness/env';

export interface EngineFixture {
  name: 'sqlite' | 'mongodb';
  /** Opens the engine for the file (one per file: FerretDB allows one writer process). */
  open(): Promise<Engine>;
  /** Where a second process would find the same data. */
  location(): string;
  cleanup(): Promise<void>;
}

export function engineFixtures(): EngineFixture[] {
  const dir = mkdtempSync(join(tmpdir(), 'engine-'));
  const file = join(dir, 'agora.db');
  const url = mongoUrlFor(uniqueName('engine'));
  return [
    {
      name: 'sqlite',
      open: () => Promise.resolve(openSqlite({ path: file, checkIndexes: true })),
      location: () => file,
      cleanup: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    },
    {
      name: 'mongodb',
      open: () => openMongo({ url, checkIndexes: true }),
      location: () => url,
      async cleanup() {
        const { default: mongoose } = await import('mongoose');
        const conn = await mongoose.createConnection(url).asPromise();
        await conn.db?.dropDatabase();
        await conn.close();
      },
    },
  ];
}

let n = 0;
/** A collection spec with a name of its own (cases share the file's engine). */
export function specFor(base: Omit<CollectionSpec, 'name'>, prefix = 'c'): CollectionSpec {
  return { ...base, name: `${prefix}_${++n}_${Date.now().toString(36)}` };
}
