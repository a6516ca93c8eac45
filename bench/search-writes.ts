/**
 * What indexing one new post for search costs on the embedded engine (ADR 0008, ADR 0033):
 * `SearchStore.upsert` of the entry `POST /outbox` writes for a note like bench/outbox-cpu.ts's
 * (~22 terms), on a file already holding `--existing` entries: main-thread CPU and wall time per
 * post, and WAL frames per post (a second connection holds a read snapshot, so the WAL only grows
 * and its size counts the frames). Runs on any commit that has SearchStore, so two worktrees can
 * be compared in the same minute.
 *
 *   node --import tsx bench/search-writes.ts [--existing=10000] [--posts=2000]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { SEARCH_ENTRIES, SEARCH_TERMS, SearchStore } from '@agora/common/db';
import { openSqlite } from '@agora/common/db/engine';
import { entryFor } from '../services/social/src/search/indexer';

const { values } = parseArgs({
  options: { existing: { type: 'string', default: '10000' }, posts: { type: 'string', default: '2000' } },
});
const noSources = {
  source: () => Promise.reject(new Error('not read')),
  allSources: () => {
    throw new Error('not read');
  },
};
const FRAME = 4096 + 24;

const post = (n: number) => ({
  id: `post:p${n}@bench.test`,
  actorId: '@bench@bench.test',
  to: '@public',
  publishedAt: new Date(Date.UTC(2026, 0, 1) + n * 1000),
  source: { content: `outbox-cpu ${10000 + (n % 50000)} ${n} ${Math.random()}` },
});

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'search-writes-'));
  const file = join(dir, 'agora.db');
  try {
    const engine = openSqlite({ path: file });
    await engine.ensure([SEARCH_ENTRIES, SEARCH_TERMS]);
    const search = new SearchStore(engine, noSources);
    const existing = Number(values.existing);
    const posts = Number(values.posts);
    for (let n = 0; n < existing; n++) await search.upsert(entryFor('Post', post(n)));
    const reader = new DatabaseSync(file);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM search_entries').get();
    const wal = () => statSync(`${file}-wal`).size;
    const walBefore = wal();
    const cpu = process.threadCpuUsage();
    const t0 = process.hrtime.bigint();
    for (let n = existing; n < existing + posts; n++) await search.upsert(entryFor('Post', post(n)));
    const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const used = process.threadCpuUsage(cpu);
    const frames = (wal() - walBefore) / FRAME;
    reader.exec('COMMIT');
    reader.close();
    await engine.close();
    const terms = entryFor('Post', post(existing)).terms.length;
    process.stdout.write(
      `${posts} posts (${terms} terms each) onto ${existing}: ${((used.user + used.system) / 1000 / posts).toFixed(3)} ms ` +
        `main-thread CPU, ${(wallMs / posts).toFixed(3)} ms wall, ${(frames / posts).toFixed(1)} WAL frames per post\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
