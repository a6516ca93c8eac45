/**
 * The scale scenario's data: a data directory per variant and size, seeded through the variant's
 * own code (`<checkout>/bench/seed.ts` on the server it boots: the stored shapes differ between
 * checkouts), so every variant gets the same posts, circles and members in its own format.
 *
 * With a cache directory, a seeded directory is kept per variant, size and version of the code
 * that shapes the data (the last commit touching bench/seed.ts or the db library), and later runs
 * start from a copy of it: 100,000 posts take minutes to seed on the code before the port.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_ADMIN, BENCH_DOMAIN, json, startBenchServer } from './embedded';

export interface Seeded {
  /** A data directory of this run's own (a copy when it came from the cache). */
  dir: string;
  circleId: string;
  /** Seconds the seeding took (when this run seeded), or the cached figure. */
  seedSeconds: number;
  cached: boolean;
}

interface Meta {
  circleId: string;
  seedSeconds: number;
}

/** The version of the code that shapes a checkout's seeded data. */
function dataVersion(root: string): string {
  try {
    return execFileSync('git', ['log', '-1', '--format=%h', '--', 'bench/seed.ts', 'libs/common/src/db'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
  } catch {
    return 'unknown';
  }
}

export async function seeded(opts: {
  variant: string;
  root: string;
  size: number;
  env: Record<string, string>;
  ownerCircles: number;
  /** Where seeded directories are kept; none: seed every run. */
  cacheDir?: string | undefined;
}): Promise<Seeded> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-scale-'));
  // The MongoDB adapter keeps its data outside the directory: no cache for it.
  const cache =
    opts.cacheDir && !opts.env.MONGO_URL
      ? join(opts.cacheDir, `${opts.variant}-${opts.size}-${dataVersion(opts.root)}`)
      : undefined;
  if (cache && existsSync(join(cache, 'meta.json'))) {
    cpSync(join(cache, 'data'), dir, { recursive: true });
    const meta = JSON.parse(readFileSync(join(cache, 'meta.json'), 'utf8')) as Meta;
    return { dir, ...meta, cached: true };
  }
  const server = await startBenchServer(opts.root, dir, opts.env);
  try {
    const login = await json<{ user: { id: string } }>(`${server.gateway}/auth/login`, {
      method: 'POST',
      body: JSON.stringify(BENCH_ADMIN),
    });
    const t0 = Date.now();
    const { seed } = (await import(join(opts.root, 'bench', 'seed.ts'))) as typeof import('./seed');
    const { circleId } = await seed(server.database, BENCH_DOMAIN, {
      posts: opts.size,
      members: 200,
      circles: 1000,
      ownerId: login.user.id,
      ownerCircles: opts.ownerCircles,
    });
    const meta: Meta = { circleId, seedSeconds: Math.round((Date.now() - t0) / 1000) };
    await server.stop();
    if (cache) {
      rmSync(cache, { recursive: true, force: true });
      mkdirSync(cache, { recursive: true });
      cpSync(dir, join(cache, 'data'), { recursive: true });
      writeFileSync(join(cache, 'meta.json'), JSON.stringify(meta));
    }
    return { dir, ...meta, cached: false };
  } catch (err) {
    await server.stop();
    throw err;
  }
}
