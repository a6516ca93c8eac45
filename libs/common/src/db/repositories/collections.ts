/**
 * Whole-collection access for backup and restore (decisions.md §8), over the engine port, so an
 * archive taken on one engine restores on the other (the way from a laptop to a cluster). Lists
 * every collection the engine holds (a fixed list would miss one a feature adds), reads each in
 * `_id` order a batch at a time, and replaces collections by renaming freshly written ones into
 * place (no transactions across collections: `docs/adr/0007-backup-archive.md`).
 *
 * Indexes are not archived: they are declared in code (`specs.ts`). A staging collection is
 * created with its collection's declared indexes, so data that breaks a unique index fails while
 * staging, before anything is swapped; after a swap, `repos.prepare()` rebuilds every index under
 * its live name.
 */
import type { Collection, CollectionSpec, Doc, Engine } from '../engine/port';
import { BACKUP_OWN_COLLECTIONS } from './backup-jobs';

/** Names a restore gives its staging and retired collections; never archived. */
export const STAGING_PREFIX = '__restore_';
export const RETIRED_PREFIX = '__retired_';

/** What a raw document of any collection is, for the archive. */
export type RawDocument = Doc & Record<string, unknown>;

export class CollectionsStore {
  /** Staging collection → the spec it was created with. */
  private readonly staged = new Map<string, CollectionSpec>();

  constructor(
    private readonly engine: Engine,
    private readonly specs: readonly CollectionSpec[],
  ) {}

  /** The declared spec of a collection; one without indexes for a collection no store declares. */
  private specOf(name: string): CollectionSpec {
    return this.staged.get(name) ?? this.specs.find((s) => s.name === name) ?? { name, indexes: [] };
  }

  private collection(name: string): Collection<RawDocument> {
    return this.engine.collection<RawDocument>(this.specOf(name));
  }

  /** Every collection of the application, sorted: not staging, retired or backup bookkeeping ones. */
  async applicationCollections(): Promise<string[]> {
    const own = new Set<string>(BACKUP_OWN_COLLECTIONS);
    return (await this.engine.names()).filter((n) => !own.has(n) && !isScratch(n));
  }

  /** Staging and retired collections a restore left behind (a crash in the middle). */
  async scratchCollections(): Promise<string[]> {
    return (await this.engine.names()).filter(isScratch);
  }

  /** Every document of a collection, in `_id` order, a batch at a time. */
  async *documents(name: string): AsyncIterable<RawDocument> {
    for await (const batch of this.collection(name).scan(500)) yield* batch;
  }

  count(name: string): Promise<number> {
    return this.collection(name).count({});
  }

  /** Drops a collection when it exists. */
  async drop(name: string): Promise<void> {
    await this.engine.drop(name);
    this.staged.delete(name);
  }

  /** Creates `name` empty, with the declared indexes of the collection it stages (`of`). */
  async create(name: string, of: string): Promise<void> {
    const spec = { ...this.specOf(of), name };
    await this.engine.ensure([spec]);
    this.staged.set(name, spec);
  }

  /** Inserts documents as archived (ids included), in order. */
  async insertRaw(name: string, docs: RawDocument[]): Promise<void> {
    if (docs.length) await this.collection(name).insertMany(docs);
  }

  /** Renames a collection; the target must not exist. */
  async rename(from: string, to: string): Promise<void> {
    await this.engine.rename(from, to);
    this.staged.delete(from);
  }

  async exists(name: string): Promise<boolean> {
    return (await this.engine.names()).includes(name);
  }
}

function isScratch(name: string): boolean {
  return name.startsWith(STAGING_PREFIX) || name.startsWith(RETIRED_PREFIX);
}
