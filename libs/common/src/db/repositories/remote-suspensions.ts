/**
 * Another server's accounts that their own server suspended (ADR 0028): an Update of the actor
 * marked `suspended` puts the actor here, the next Update without the flag takes it out. While it
 * is here, this server hides the actor's copies as it hides a suspended local account's content
 * (the social service adds these ids to its set of suspended accounts). One row per actor, keyed
 * by its id, so a suspension and its lifting are primary-key writes and the whole set one read in
 * key order (it holds what peers suspended, a handful).
 */
import type { Collection, CollectionSpec, Engine } from '../engine/port';
import { DuplicateKeyError } from '../engine/port';

export interface RemoteSuspensionRecord {
  /** The actor's id. */
  _id: string;
  /** When its server told this one. */
  at: Date;
}

export const REMOTE_SUSPENSIONS: CollectionSpec = {
  name: 'remote_suspensions',
  // Every read and write is by `_id`, or the whole set in `_id` order.
  indexes: [],
  dates: ['at'],
};

export class RemoteSuspensionsStore {
  private readonly rows: Collection<RemoteSuspensionRecord>;

  constructor(engine: Engine) {
    this.rows = engine.collection<RemoteSuspensionRecord>(REMOTE_SUSPENSIONS);
  }

  /** Records the actor as suspended by its server; true when it was not already. */
  async suspend(actorId: string, at = new Date()): Promise<boolean> {
    try {
      await this.rows.insertOne({ _id: actorId, at });
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /** Its server restored the actor; true when it was recorded as suspended. */
  async lift(actorId: string): Promise<boolean> {
    return (await this.rows.deleteOne({ _id: actorId })) === 1;
  }

  /** Whether the actor is recorded as suspended. */
  async has(actorId: string): Promise<boolean> {
    return (await this.rows.findOne({ _id: actorId })) !== null;
  }

  /** Every suspended remote actor. */
  async ids(): Promise<string[]> {
    return (await this.rows.find({}, { fields: ['_id'] })).map((r) => r._id);
  }
}
