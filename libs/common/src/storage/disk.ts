import { createHash, randomUUID } from 'node:crypto';
import { constants, createWriteStream, type Dirent } from 'node:fs';
import {
  access,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { BadRequest, Conflict, NotFound } from '../errors';
import { flow, guard, mapChunks } from '../streams';
import { assertValidKey, assertValidPrefix, compareKeys } from './keys';
import { asBuffer, isStreamBody, releaseBody } from './parts';
import type { GetOptions, ObjectInfo, ObjectStorage, PutBody, PutOptions } from './types';

export interface DiskStorageOptions {
  root: string;
}

interface Meta {
  key: string;
  contentType?: string;
  etag?: string;
}

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** Built from mtimeMs, not fs.Stats.mtime: under Jest, Dates made by fs fail `instanceof Date`. */
function mtime(st: { mtimeMs: number }): Date {
  return new Date(st.mtimeMs);
}

/** The path does not lead to a regular file: a missing key, not a failure. */
function isMissing(err: unknown): boolean {
  const c = code(err);
  return c === 'ENOENT' || c === 'ENOTDIR' || c === 'ELOOP';
}

/**
 * Objects as files, for single-machine self-hosting and tests. Layout under `root`:
 *   data/<key>            the bytes, so the tree is browsable and backed up as plain files
 *   meta/<hh>/<sha256>.json content type and etag, named by a hash of the key so no key can
 *                         collide with a metadata file
 *   tmp/                  uploads in progress, renamed into data/ when complete (same
 *                         filesystem, so the rename is atomic and readers never see half a file)
 * Unlike S3, `a` and `a/b` cannot both exist (one would be a file and a directory): such a put
 * fails with Conflict.
 */
export function createDiskStorage(opts: DiskStorageOptions): ObjectStorage {
  const root = resolve(opts.root);
  const dataDir = join(root, 'data');
  const metaDir = join(root, 'meta');
  const tmpDir = join(root, 'tmp');

  function dataPath(key: string): string {
    assertValidKey(key);
    const p = resolve(dataDir, key);
    // assertValidKey already excludes "..", absolute paths and NUL; this guards the rules themselves.
    if (!p.startsWith(dataDir + sep)) throw new BadRequest('Object key escapes the storage root');
    return p;
  }

  function metaPath(key: string): string {
    const h = createHash('sha256').update(key).digest('hex');
    return join(metaDir, h.slice(0, 2), `${h}.json`);
  }

  async function readMeta(key: string): Promise<Partial<Meta>> {
    try {
      const meta = JSON.parse(await readFile(metaPath(key), 'utf8')) as Meta;
      return meta.key === key ? meta : {};
    } catch (err) {
      if (code(err) === 'ENOENT') return {}; // a file put there by hand: still served, without metadata
      throw err;
    }
  }

  async function writeMeta(meta: Meta): Promise<void> {
    const target = metaPath(meta.key);
    const tmp = join(tmpDir, `${randomUUID()}.json`);
    await writeFile(tmp, JSON.stringify(meta));
    await mkdir(dirname(target), { recursive: true });
    await rename(tmp, target);
  }

  async function info(key: string): Promise<ObjectInfo | null> {
    let st;
    try {
      st = await lstat(dataPath(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    if (!st.isFile()) return null;
    const meta = await readMeta(key);
    return {
      key,
      size: st.size,
      lastModified: mtime(st),
      ...(meta.etag ? { etag: meta.etag } : {}),
      ...(meta.contentType ? { contentType: meta.contentType } : {}),
    };
  }

  async function moveIntoPlace(tmp: string, dest: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await mkdir(dirname(dest), { recursive: true });
        await rename(tmp, dest);
        return;
      } catch (err) {
        const c = code(err);
        // A concurrent delete may have pruned the empty parent between mkdir and rename.
        if (c === 'ENOENT' && attempt < 2) continue;
        if (c === 'ENOTDIR' || c === 'EISDIR' || c === 'EEXIST' || c === 'ENOTEMPTY') {
          throw new Conflict('Object key collides with another key (a key cannot also be a prefix on disk)');
        }
        throw err;
      }
    }
  }

  /** Removes directories left empty by a delete so they do not block a later put of that path. */
  async function pruneEmptyParents(path: string): Promise<void> {
    for (let dir = dirname(path); dir.startsWith(dataDir + sep); dir = dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or already gone): stop
      }
    }
  }

  async function* walk(relDir: string, prefix: string): AsyncGenerator<ObjectInfo> {
    let entries: Dirent[];
    try {
      entries = await readdir(join(dataDir, relDir), { withFileTypes: true });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    // Sorting a directory as "name/" puts its whole subtree where S3 would list those keys
    // (e.g. "a-b" < "a/x" < "a0", since "-" < "/" < "0").
    const items = entries
      .filter((e) => e.isFile() || e.isDirectory()) // symlinks and the like are not objects
      .map((e) => ({ isDir: e.isDirectory(), path: relDir + e.name + (e.isDirectory() ? '/' : '') }))
      .sort((a, b) => compareKeys(a.path, b.path));
    for (const item of items) {
      if (item.isDir) {
        if (item.path.startsWith(prefix) || prefix.startsWith(item.path)) yield* walk(item.path, prefix);
      } else if (item.path.startsWith(prefix)) {
        const found = await info(item.path).catch((err: unknown) => {
          if (err instanceof BadRequest) return null; // a file whose name is not a valid key
          throw err;
        });
        if (found) yield found;
      }
    }
  }

  return {
    async ensureBucket() {
      for (const dir of [dataDir, metaDir, tmpDir]) await mkdir(dir, { recursive: true });
    },

    async put(key: string, body: PutBody, putOpts: PutOptions = {}) {
      const contentType = putOpts.contentType ?? DEFAULT_CONTENT_TYPE;
      const expected = putOpts.contentLength;
      const tmp = join(tmpDir, randomUUID());
      try {
        const dest = dataPath(key);
        await mkdir(tmpDir, { recursive: true });
        const md5 = createHash('md5');
        let size = 0;
        const source = isStreamBody(body) ? body : [typeof body === 'string' ? Buffer.from(body) : body];
        await flow([
          source,
          mapChunks((raw) => {
            const chunk = asBuffer(raw);
            size += chunk.length;
            if (expected !== undefined && size > expected) {
              throw new BadRequest(`Body is longer than the declared ${expected} bytes`);
            }
            md5.update(chunk);
            return chunk;
          }),
          // flush: fsync before close, so the rename below never publishes unwritten data.
          createWriteStream(tmp, { flags: 'wx', flush: true }),
        ]);
        if (expected !== undefined && size !== expected) {
          throw new BadRequest(`Body is ${size} bytes, declared ${expected}`);
        }
        const etag = md5.digest('hex');
        await moveIntoPlace(tmp, dest);
        // Metadata follows the data: a reader racing this put may briefly see the new bytes with
        // the previous content type and etag, never a missing or partial file.
        await writeMeta({ key, contentType, etag });
        return (await info(key)) ?? { key, size, etag, contentType };
      } catch (err) {
        releaseBody(body);
        await rm(tmp, { force: true });
        throw err;
      }
    },

    async get(key: string, opts: GetOptions = {}) {
      const path = dataPath(key);
      let handle;
      try {
        // O_NOFOLLOW: a symlink planted under data/ must not expose files outside the root.
        handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      } catch (err) {
        if (isMissing(err)) throw new NotFound('Object not found');
        throw err;
      }
      try {
        const st = await handle.stat();
        if (!st.isFile()) throw new NotFound('Object not found');
        const meta = await readMeta(key);
        const info: ObjectInfo = {
          key,
          size: st.size,
          lastModified: mtime(st),
          ...(meta.etag ? { etag: meta.etag } : {}),
          ...(meta.contentType ? { contentType: meta.contentType } : {}),
        };
        // Reading through the handle we stat'ed: a concurrent put (rename) cannot swap the bytes.
        const range = opts.range ? { start: opts.range.start, end: opts.range.end } : {};
        return { body: guard(handle.createReadStream(range)), info };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    stat: info,

    async delete(key: string) {
      const path = dataPath(key);
      try {
        await unlink(path);
      } catch (err) {
        const c = code(err);
        // EISDIR/EPERM: the path is a directory of other keys, so this key does not exist.
        if (!isMissing(err) && c !== 'EISDIR' && c !== 'EPERM') throw err;
      }
      await rm(metaPath(key), { force: true });
      await pruneEmptyParents(path);
    },

    async *list(prefix = '') {
      assertValidPrefix(prefix);
      yield* walk(prefix.slice(0, prefix.lastIndexOf('/') + 1), prefix);
    },

    async health() {
      try {
        await access(dataDir, constants.R_OK | constants.W_OK);
        await access(tmpDir, constants.W_OK);
        return { ok: true };
      } catch (err) {
        return { ok: false, detail: `${code(err) ?? 'error'}: storage root ${root} not writable` };
      }
    },
  };
}
