/**
 * Where a migration reads or writes: a SQLite file (`sqlite:<path>` or a plain path) or a MongoDB
 * URL (`mongodb://…`, `mongodb+srv://…`), opened through the engine port for the copy alone.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openMongo } from '../engine/mongo/engine';
import { FerretDBShared } from '../engine/mongo/ferretdb';
import { DatabaseInUse, type Engine } from '../engine/port';
import { openSqlite } from '../engine/sqlite/engine';
import { MigrationRefused } from './copy';

export type Location = { kind: 'sqlite'; path: string } | { kind: 'mongodb'; url: string };

const MONGO_RE = /^mongodb(\+srv)?:\/\//;

/** `base`: what a relative path is relative to (the caller's working directory). */
export function parseLocation(arg: string, base = process.cwd()): Location {
  const text = arg.trim();
  if (!text) throw new MigrationRefused('an empty location: give a SQLite file or a mongodb:// URL');
  if (MONGO_RE.test(text)) return { kind: 'mongodb', url: text };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    throw new MigrationRefused(
      `${describeLocation({ kind: 'mongodb', url: text })}: not a SQLite file or a mongodb:// URL`,
    );
  const path = text.startsWith('sqlite:') ? text.slice('sqlite:'.length) : text;
  if (!path) throw new MigrationRefused('sqlite: needs a file path (sqlite:data/agora.db)');
  return { kind: 'sqlite', path: resolve(base, path) };
}

/** For messages: the URL's password hidden. */
export function describeLocation(loc: Location): string {
  if (loc.kind === 'sqlite') return `sqlite:${loc.path}`;
  return loc.url.replace(/^([a-z0-9+.-]+:\/\/)([^@/]*)@/i, (_, scheme: string, auth: string) =>
    auth.includes(':') ? `${scheme}${auth.slice(0, auth.indexOf(':'))}:***@` : `${scheme}${auth}@`,
  );
}

export function sameLocation(a: Location, b: Location): boolean {
  if (a.kind === 'sqlite') return b.kind === 'sqlite' && a.path === b.path;
  return b.kind === 'mongodb' && a.url === b.url;
}

/**
 * Opens a location for the copy alone. A SQLite file is held exclusively until closed: refused
 * (DatabaseInUse) while a server has it open, and no server can open it meanwhile. A source file
 * must exist (a mistyped path would otherwise make an empty database). On FerretDB the adapter's
 * lease refuses a database another process writes (FerretDBShared); on MongoDB nothing can tell.
 */
export async function openLocation(loc: Location, role: 'source' | 'target'): Promise<Engine> {
  if (loc.kind === 'sqlite' && role === 'source' && !existsSync(loc.path))
    throw new MigrationRefused(`the source ${describeLocation(loc)} does not exist`);
  try {
    return loc.kind === 'mongodb'
      ? await openMongo({ url: loc.url })
      : openSqlite({ path: loc.path, exclusive: true, busyTimeoutMs: 1000 });
  } catch (err) {
    if (err instanceof DatabaseInUse || err instanceof FerretDBShared)
      throw new MigrationRefused(
        `the ${role} ${describeLocation(loc)} is in use by another process (a running server?): stop every ` +
          'server using it (npm start, or the services), then run the migration again',
      );
    throw new Error(`cannot open the ${role} ${describeLocation(loc)}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}
