/**
 * `npm run migrate` end to end (docs/operations.md, "Moving between standalone and a cluster"):
 * the command runs as a child process, as an operator runs it, from a SQLite file seeded through
 * the stores to a fresh MongoDB database (the run's FerretDB) and back to a fresh SQLite file.
 * Asserted: the exit code, the printed counts, every document of every declared collection on
 * the target (the backup job history included), the declared indexes, what the stores read; and
 * the refusals, each of which leaves the target as it was: a non-empty target without --force, a
 * source a server holds (SQLite's lock, FerretDB's lease), a missing source, bad arguments.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import mongoose from 'mongoose';
import { STORE_SPECS, createStores } from '@agora/common/db';
import { indexName, openMongo, openSqlite, type Engine } from '@agora/common/db/engine';
import { mongoUrlFor, uniqueName } from '../../harness/env';
import { readSeeded, seedStores, type Seeded } from '../../harness/seed';
import { storedDocuments } from '../../harness/stored';

const ROOT = resolve(__dirname, '../../..');
const DOMAIN = 'migrate.test';
const dir = mkdtempSync(join(tmpdir(), 'migrate-'));
const sourceFile = join(dir, 'agora.db');
const mongoUrl = mongoUrlFor(uniqueName('migrate'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run migrate -- <args>` from `cwd`, as an operator types it. */
function migrate(args: string[], cwd = dir): Promise<Run> {
  const env = { ...process.env };
  delete env.INIT_CWD; // npm sets it to where it was run from (relative paths are read against it)
  return new Promise((done, fail) => {
    const child = spawn('npm', ['--prefix', ROOT, 'run', '--silent', 'migrate', '--', ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Opens an engine for the duration of `fn` (FerretDB's lease is held only meanwhile). */
async function withEngine<T>(
  open: () => Promise<Engine> | Engine,
  fn: (e: Engine) => Promise<T>,
): Promise<T> {
  const engine = await open();
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
}
const sqlite = (path: string) => () => openSqlite({ path, checkIndexes: true });
const mongo = () => openMongo({ url: mongoUrl, checkIndexes: true });

async function contents(engine: Engine) {
  const repos = createStores({ engine, ping: () => engine.ping(), close: () => engine.close() }, DOMAIN);
  return { documents: await storedDocuments(engine, STORE_SPECS), reads: await readSeeded(repos, seeded) };
}

/** The summary's `<collection>  <documents>` rows. */
function printedCounts(stdout: string): Record<string, number> {
  const rows = stdout.trim().split('\n').slice(1);
  return Object.fromEntries(rows.map((r) => r.trim().split(/\s+/)).map(([n, c]) => [n!, Number(c)]));
}

let seeded: Seeded;
let source: Awaited<ReturnType<typeof contents>>;
let counts: Record<string, number>;

beforeAll(async () => {
  await withEngine(sqlite(sourceFile), async (engine) => {
    await engine.ensure(STORE_SPECS);
    const repos = createStores({ engine, ping: () => engine.ping(), close: () => engine.close() }, DOMAIN);
    seeded = await seedStores(repos, DOMAIN);
    source = await contents(engine);
    counts = Object.fromEntries(
      await Promise.all(
        STORE_SPECS.map(async (s) => [s.name, await repos.collections.count(s.name)] as const),
      ),
    );
  });
});

afterAll(async () => {
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  await conn.db?.dropDatabase();
  await conn.close();
  rmSync(dir, { recursive: true, force: true });
});

test('SQLite → MongoDB: exit 0, the counts printed, every document and index on the target, the stores read the same', async () => {
  const run = await migrate(['--from', sourceFile, '--to', mongoUrl]);
  expect(run.stderr).toMatch(new RegExp(`done: ${STORE_SPECS.length} collections copied`));
  expect(run.code).toBe(0);
  expect(printedCounts(run.stdout)).toEqual({
    ...counts,
    total: Object.values(counts).reduce((a, b) => a + b),
  });
  expect(counts.backup_jobs).toBe(1);

  await withEngine(mongo, async (engine) => expect(await contents(engine)).toStrictEqual(source));
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  try {
    for (const spec of STORE_SPECS) {
      const names = (await conn.db!.collection(spec.name).indexes()).map((ix) => ix.name).sort();
      expect([spec.name, names]).toEqual([
        spec.name,
        ['_id_', ...spec.indexes.map((ix) => indexName(spec.name, ix))].sort(),
      ]);
    }
  } finally {
    await conn.close();
  }
});

test('a target that holds data is refused without --force and left as it was; --force replaces it', async () => {
  const refused = await migrate(['--from', `sqlite:${sourceFile}`, '--to', mongoUrl]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /error: the target already holds data \(.*users: 3.*\)\..*Give --force to replace it/,
  );
  expect(refused.stdout).toBe('');
  await withEngine(mongo, async (engine) =>
    expect((await contents(engine)).documents).toStrictEqual(source.documents),
  );

  const forced = await migrate(['--from', sourceFile, '--to', mongoUrl, '--force']);
  expect(forced.code).toBe(0);
  expect(forced.stderr).toMatch(/replaced: users held 3 documents on the target \(--force\)/);
  await withEngine(mongo, async (engine) => expect(await contents(engine)).toStrictEqual(source));
});

test('MongoDB → a new SQLite file (relative to where npm runs): the way back', async () => {
  const run = await migrate(['--from', mongoUrl, '--to', 'sqlite:back/agora.db']);
  expect(run.code).toBe(0);
  expect(printedCounts(run.stdout).users).toBe(3);
  // MongoDB's search term rows are not copied: SQLite's FTS5 index is filled by the entries.
  expect(run.stderr).not.toMatch(/search_terms/);
  await withEngine(sqlite(join(dir, 'back', 'agora.db')), async (engine) => {
    expect(await engine.names()).not.toContain('search_terms');
    expect(await contents(engine)).toStrictEqual(source);
  });
});

test('a source a server holds is refused, and nothing is written', async () => {
  // A running server keeps its SQLite connection open (idle or not).
  await withEngine(sqlite(sourceFile), async () => {
    const run = await migrate(['--from', sourceFile, '--to', join(dir, 'held.db')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /error: the source sqlite:.*agora\.db is in use by another process \(a running server\?\): stop every server using it/,
    );
  });
  expect(existsSync(join(dir, 'held.db'))).toBe(false);
  // On FerretDB the adapter's lease tells the same.
  await withEngine(mongo, async () => {
    const run = await migrate(['--from', mongoUrl, '--to', join(dir, 'leased.db')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error: the source mongodb:.* is in use by another process/);
  });
  expect(existsSync(join(dir, 'leased.db'))).toBe(false);
});

test('a missing source and bad arguments are refused with the reason', async () => {
  const missing = await migrate(['--from', join(dir, 'nope.db'), '--to', join(dir, 'new.db')]);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/error: the source sqlite:.*nope\.db does not exist/);
  expect(existsSync(join(dir, 'new.db'))).toBe(false);
  // A file that is no Agora database (a wrong path that happens to exist).
  await withEngine(sqlite(join(dir, 'other.db')), () => Promise.resolve());
  const foreign = await migrate(['--from', join(dir, 'other.db'), '--to', join(dir, 'new.db')]);
  expect(foreign.code).toBe(1);
  expect(foreign.stderr).toMatch(/error: the source holds none of Agora's collections/);
  expect(existsSync(join(dir, 'new.db'))).toBe(false);

  const cases: Array<[string[], RegExp]> = [
    [['--from', sourceFile], /--from and --to are both required/],
    [['--from', sourceFile, '--to', sourceFile], /--from and --to name the same database/],
    [['--from', sourceFile, '--to', 'postgres://x/y'], /not a SQLite file or a mongodb:\/\/ URL/],
    [['--from', sourceFile, '--to', 'x.db', '--frobnicate'], /Unknown option '--frobnicate'/],
  ];
  for (const [args, message] of cases) {
    const run = await migrate(args);
    expect([args, run.code]).toEqual([args, 2]);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/usage: npm run migrate -- --from/);
  }
});
