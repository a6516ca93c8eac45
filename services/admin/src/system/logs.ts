/**
 * GET /admin/system/logs?tail=&level= (spec 4.5): the last lines of LOG_FILE, at most 2000, read
 * from the file's last 512 KB so a large log costs no more than a small one. `level` keeps lines
 * at that level or more severe (pino's numbering). Without LOG_FILE (containers log to stdout)
 * the answer is empty with a warning: collect logs with the platform there.
 */
import { open } from 'node:fs/promises';
import { BadRequest } from '@agora/common/errors';
import type { AdminContext } from '../context';

const MAX_LINES = 2000;
const WINDOW_BYTES = 512 * 1024;
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

export interface LogQuery {
  tail: number;
  minLevel?: number;
}

export function parseLogQuery(query: Record<string, unknown>): LogQuery {
  const raw = typeof query.tail === 'string' ? Number.parseInt(query.tail, 10) : 200;
  const tail = Math.min(MAX_LINES, Math.max(1, Number.isFinite(raw) ? raw : 200));
  if (query.level === undefined) return { tail };
  const minLevel =
    typeof query.level === 'string' && Object.hasOwn(LEVELS, query.level) ? LEVELS[query.level] : undefined;
  if (minLevel === undefined) throw new BadRequest(`level must be one of ${Object.keys(LEVELS).join(', ')}`);
  return { tail, minLevel };
}

async function lastBytes(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const start = Math.max(0, size - WINDOW_BYTES);
    const buf = Buffer.alloc(size - start);
    await file.read(buf, 0, buf.length, start);
    const text = buf.toString('utf8');
    // Starting mid-file, the first line is a fragment.
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await file.close();
  }
}

function levelOf(line: string): number | undefined {
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return typeof level === 'number' ? level : undefined;
  } catch {
    return undefined;
  }
}

export async function readLogTail(ctx: AdminContext, q: LogQuery) {
  const logFile = ctx.config.LOG_FILE;
  if (!logFile)
    return {
      lines: [],
      total: 0,
      warning: 'LOG_FILE is not set: logs go to stdout; collect them with the platform',
    };
  let text: string;
  try {
    text = await lastBytes(logFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], total: 0, logFile };
    throw err;
  }
  const lines = text
    .split('\n')
    .filter((l) => l.trim() && (q.minLevel === undefined || (levelOf(l) ?? 0) >= q.minLevel));
  const out = lines.slice(-q.tail);
  return { lines: out, total: out.length, logFile };
}
