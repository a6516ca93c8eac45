/**
 * An offline copy of a whole database from one engine to another (`npm run migrate`, the way from
 * standalone's SQLite file to a cluster's MongoDB and back): every collection a store declares
 * (`STORE_SPECS`), read in `_id` order a batch at a time and inserted as it is, through the engine
 * port, by the same CollectionsStore backups use. Only one batch is held at a time, so memory
 * stays flat whatever the size. The target gets every declared index before the first document,
 * so data that breaks a unique index fails the copy instead of landing. The search index's term
 * rows are not copied but rebuilt from the entries on a target that keeps them, MongoDB (ADR 0033).
 *
 * Nothing else may write either database meanwhile: the copy is not a snapshot (the caller opens
 * the engines for exclusive use where it can: engine/sqlite `exclusive`, the FerretDB lease).
 */
import type { CollectionSpec, Engine } from '../engine/port';
import { CollectionsStore, type RawDocument } from '../repositories/collections';
import { SEARCH_TERMS, SearchStore } from '../repositories/search';

/** The search store reads no object to rebuild its rows. */
const NO_SOURCES = {
  source: () => Promise.reject(new Error('a copy reads no search source')),
  allSources: () => {
    throw new Error('a copy reads no search source');
  },
};

/** A refusal before anything was written: the message says what to do. */
export class MigrationRefused extends Error {
  override readonly name = 'MigrationRefused';
}

export interface CopyProgress {
  collection: string;
  /** Documents of this collection copied so far. */
  copied: number;
  /** Documents it held when its copy began. */
  total: number;
}

export interface CopyOptions {
  specs: readonly CollectionSpec[];
  /** Replace the target's documents in these collections instead of refusing a non-empty target. */
  force?: boolean;
  /** Documents per read and per insert. */
  batch?: number;
  /** Before each collection (copied 0) and after each batch. */
  onProgress?: (p: CopyProgress) => void;
}

export interface CopyReport {
  /** Every declared collection in declaration order, with the documents the target holds now. */
  collections: Array<{ name: string; documents: number }>;
  /** Collections of the source no store declares: not copied. */
  skipped: string[];
  /** With `force`: the target's collections that held documents before, replaced. */
  replaced: Array<{ name: string; documents: number }>;
}

/**
 * The source's collections (every one, the backup machinery's included: the job history moves
 * with the server); refused when none is Agora's (a wrong path or database name). Callers may
 * run it before they open the target, so a refusal creates nothing there.
 */
export async function checkSource(source: Engine, specs: readonly CollectionSpec[]): Promise<Set<string>> {
  const present = new Set(await source.names());
  if (!specs.some((s) => present.has(s.name)))
    throw new MigrationRefused(
      "the source holds none of Agora's collections: is it the right file or database name?",
    );
  return present;
}

export async function copyDatabase(source: Engine, target: Engine, opts: CopyOptions): Promise<CopyReport> {
  const batch = opts.batch ?? 500;
  const from = new CollectionsStore(source, opts.specs);
  const to = new CollectionsStore(target, opts.specs);
  const declared = new Set(opts.specs.map((s) => s.name));
  const present = await checkSource(source, opts.specs);

  const filled = await holdingDocuments(target, to, declared);
  if (filled.length && !opts.force)
    throw new MigrationRefused(
      `the target already holds data (${filled.map((c) => `${c.name}: ${c.documents}`).join(', ')}). ` +
        'Copying into it would mix two databases. Give --force to replace it: the documents of ' +
        'every Agora collection on the target are deleted first (other collections are left alone).',
    );
  if (opts.force) for (const name of await existing(target, declared)) await to.drop(name);
  await target.ensure(opts.specs);

  const report: CopyReport = {
    collections: [],
    // The search term rows are rebuilt on the target (below), not skipped.
    skipped: [...present].filter((n) => !declared.has(n) && n !== SEARCH_TERMS.name),
    replaced: filled,
  };
  for (const spec of opts.specs) {
    try {
      const copied = present.has(spec.name) ? await copyCollection(from, to, spec.name, batch, opts) : 0;
      const stored = await to.count(spec.name);
      if (stored !== copied) throw new Error(`${copied} documents copied but the target holds ${stored}`);
      report.collections.push({ name: spec.name, documents: stored });
    } catch (err) {
      throw new Error(
        `${spec.name}: ${(err as Error).message} (the target is partly written: once the cause is ` +
          'fixed, run the migration again with --force)',
        { cause: err },
      );
    }
  }
  // Derived from the entries just copied (the target's own rows, if any, describe other data).
  await new SearchStore(target, NO_SOURCES).prepare({ rebuild: true });
  return report;
}

async function copyCollection(
  from: CollectionsStore,
  to: CollectionsStore,
  name: string,
  size: number,
  opts: CopyOptions,
): Promise<number> {
  const total = await from.count(name);
  let copied = 0;
  let docs: RawDocument[] = [];
  const flush = async () => {
    await to.insertRaw(name, docs);
    copied += docs.length;
    docs = [];
    opts.onProgress?.({ collection: name, copied, total });
  };
  opts.onProgress?.({ collection: name, copied, total });
  for await (const doc of from.documents(name)) {
    docs.push(doc);
    if (docs.length >= size) await flush();
  }
  if (docs.length) await flush();
  return copied;
}

/** The declared collections the engine holds. */
async function existing(engine: Engine, declared: Set<string>): Promise<string[]> {
  return (await engine.names()).filter((n) => declared.has(n));
}

async function holdingDocuments(
  engine: Engine,
  repo: CollectionsStore,
  declared: Set<string>,
): Promise<Array<{ name: string; documents: number }>> {
  const out: Array<{ name: string; documents: number }> = [];
  for (const name of await existing(engine, declared)) {
    const documents = await repo.count(name);
    if (documents) out.push({ name, documents });
  }
  return out;
}
