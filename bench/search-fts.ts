/**
 * GET /search's index read on the embedded default (ADR 0033): `SearchStore.withTerm` on SQLite's
 * FTS5 term index, for a term every entry holds and for a rare one, at growing numbers of
 * entries (22 terms each, as a post's): the newest 500 of every kind (what GET /search reads),
 * 500 and 20 of one kind. Flat in the entries when the index is read newest first and stops at
 * the limit.
 *
 *   node --import tsx bench/search-fts.ts [--sizes=1000,10000,100000] [--reps=50]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SEARCH_ENTRIES, SEARCH_KINDS, SearchStore } from '@agora/common/db';
import { openSqlite } from '@agora/common/db/engine';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    reps: { type: 'string', default: '50' },
  },
});
const reps = Number(values.reps);
const noSources = {
  source: () => Promise.reject(new Error('not read')),
  allSources: () => {
    throw new Error('not read');
  },
};

async function time(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) await fn();
  return Number(process.hrtime.bigint() - t) / 1e6 / reps;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'search-fts-'));
  try {
    const engine = openSqlite({ path: join(dir, 'agora.db') });
    await engine.ensure([SEARCH_ENTRIES]);
    const entries = engine.collection(SEARCH_ENTRIES);
    const search = new SearchStore(engine, noSources);
    let n = 0;
    for (const size of values.sizes.split(',').map(Number)) {
      const t0 = Date.now();
      while (n < size) {
        const batch = [];
        for (let i = 0; i < 1000 && n < size; i++, n++)
          batch.push({
            _id: `post:b${n}`,
            kind: SEARCH_KINDS[n % 5]!,
            // A common term, one of 1,000 entries, and 20 of this entry alone.
            terms: ['co', `r${n % 1000}`, ...Array.from({ length: 20 }, (_, j) => `u${n}x${j}`)],
            to: '@public',
            actorId: '@a',
            at: new Date(Date.UTC(2026, 0, 1) + n * 1000),
            rev: 'r',
          });
        await entries.insertMany(batch);
      }
      const fill = Date.now() - t0;
      const common = await time(() => search.withTerm('co', undefined, 500));
      const oneKind = await time(() => search.withTerm('co', 'Group', 500));
      const page = await time(() => search.withTerm('co', 'Post', 20));
      const rare = await time(() => search.withTerm('r7', undefined, 500));
      const ftsOnly = await time(() =>
        engine.findByTerm!(SEARCH_ENTRIES, { term: 'co', within: SEARCH_KINDS, limit: 500 }),
      );
      const ftsPage = await time(() =>
        engine.findByTerm!(SEARCH_ENTRIES, { term: 'co', within: ['Post'], limit: 20 }),
      );
      process.stdout.write(
        `${size} entries (inserted in ${fill} ms): a term of every entry: 500 of every kind ` +
          `${common.toFixed(2)} ms, 500 of one kind ${oneKind.toFixed(2)} ms, 20 of one kind ` +
          `${page.toFixed(2)} ms; a term of ${Math.ceil(size / 1000)} entries ${rare.toFixed(2)} ms; ` +
          `the FTS5 read alone: 500 of every kind ${ftsOnly.toFixed(2)} ms, 20 of one ${ftsPage.toFixed(2)} ms\n`,
      );
    }
    await engine.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
