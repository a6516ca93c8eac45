/**
 * What a migration is (ADR 0032): a numbered file in this folder that moves stored data from one
 * shape to the next, written over the engine port only, so it runs on either engine. Nothing has
 * been released, so there is one format; a change of it from now on is a migration, run once at
 * start and recorded in `migrations`.
 */
import type { CollectionSpec, Engine } from '../engine/port';
import type { Logger } from '../../logger';

export interface Migration {
  /** `<number>-<name>` (`0001-list-keys-item-first`): the file's name and the record's `_id`. */
  id: string;
  /**
   * Moves every document still in the old shape. Idempotent: a crash part-way leaves a database
   * the next run (at the next start) finishes, and a run over migrated data changes nothing.
   * Reads in batches (`scan`), never a whole collection in memory.
   */
  run(engine: Engine, log: MigrationLog): Promise<void>;
}

/** Where a migration says what it did (the runner's logger, or nothing). */
export type MigrationLog = Pick<Logger, 'info' | 'warn'>;

/** One migration's record: claimed (`running`) by the process that runs it, then `done`. */
export interface MigrationRow {
  /** The migration's id. */
  _id: string;
  state: 'running' | 'done';
  /** Which process holds a `running` claim (a random token per runner). */
  by: string;
  /** When the claim was taken or last renewed (a claim not renewed for long is taken over). */
  claimedAt: Date;
  /** When it completed. */
  appliedAt?: Date;
}

export const MIGRATIONS: CollectionSpec = {
  name: 'migrations',
  // Every read and write is by `_id` (the migration's id).
  indexes: [],
  dates: ['claimedAt', 'appliedAt'],
};
