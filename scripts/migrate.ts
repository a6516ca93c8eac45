/**
 * `npm run migrate -- --from <source> --to <target> [--force]`: copies the whole database from
 * one engine to the other, offline (docs/operations.md, "Moving between standalone and a
 * cluster"). A location is `sqlite:<path>` or a plain path (relative to where npm was run), or a
 * `mongodb://` / `mongodb+srv://` URL. Stop every server using either database first: a SQLite
 * file is held exclusively for the copy (refused while a server has it open); MongoDB cannot
 * tell. Progress goes to stderr, the final count per collection to stdout. Exit codes: 0 done,
 * 1 refused or failed (the message says why), 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import { STORE_SPECS } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import {
  checkSource,
  copyDatabase,
  describeLocation,
  openLocation,
  parseLocation,
  sameLocation,
  type CopyProgress,
  type CopyReport,
  type Location,
} from '@agora/common/db/migrate';

const USAGE =
  'usage: npm run migrate -- --from <sqlite:path | path | mongodb://…> --to <sqlite:path | path | mongodb://…> [--force]';
/** A progress line every so many documents when stderr is not a terminal. */
const LOG_EVERY = 10_000;

class UsageError extends Error {}

/** The parsed arguments; null for --help. */
function args(): { from: Location; to: Location; force: boolean } | null {
  let values: { from?: string; to?: string; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        force: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return null;
  if (!values.from || !values.to) throw new UsageError('--from and --to are both required');
  // npm runs scripts from the package's folder; a relative path means the caller's folder.
  const base = process.env.INIT_CWD ?? process.cwd();
  const location = (arg: string) => {
    try {
      return parseLocation(arg, base);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  };
  const from = location(values.from);
  const to = location(values.to);
  if (sameLocation(from, to)) throw new UsageError('--from and --to name the same database');
  return { from, to, force: !!values.force };
}

function progressPrinter(): { update(p: CopyProgress): void; end(): void } {
  const tty = process.stderr.isTTY;
  let open = false;
  return {
    update({ collection, copied, total }) {
      const line = `  ${collection}: ${copied} / ${total}`;
      if (tty) {
        process.stderr.write(`\r\x1b[2K${line}`);
        open = true;
      } else if (copied === 0 || copied === total || copied % LOG_EVERY === 0) {
        process.stderr.write(`${line}\n`);
      }
    },
    end() {
      if (open) process.stderr.write('\n');
      open = false;
    },
  };
}

function summary(report: CopyReport): string {
  const width = Math.max(...report.collections.map((c) => c.name.length), 'collection'.length);
  const total = report.collections.reduce((n, c) => n + c.documents, 0);
  return [
    `${'collection'.padEnd(width)}  documents`,
    ...report.collections.map((c) => `${c.name.padEnd(width)}  ${c.documents}`),
    `${'total'.padEnd(width)}  ${total}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const parsed = args();
  if (!parsed) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { from, to, force } = parsed;
  process.stderr.write(`migrate: from ${describeLocation(from)}\n         to   ${describeLocation(to)}\n`);
  const opened: Engine[] = [];
  try {
    const source = await openLocation(from, 'source');
    opened.push(source);
    await checkSource(source, STORE_SPECS);
    const target = await openLocation(to, 'target');
    opened.push(target);
    const progress = progressPrinter();
    const report = await copyDatabase(source, target, {
      specs: STORE_SPECS,
      force,
      onProgress: (p) => progress.update(p),
    }).finally(() => progress.end());
    for (const r of report.replaced)
      process.stderr.write(`replaced: ${r.name} held ${r.documents} documents on the target (--force)\n`);
    for (const name of report.skipped)
      process.stderr.write(`skipped: ${name} (no store declares it; not copied)\n`);
    process.stdout.write(`${summary(report)}\n`);
    process.stderr.write(
      `done: ${report.collections.length} collections copied with their indexes; the counts above are the target's\n`,
    );
  } finally {
    for (const engine of opened.reverse()) await engine.close().catch(() => undefined);
  }
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`error: ${err.message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`error: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
