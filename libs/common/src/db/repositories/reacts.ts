/**
 * Reactions: one per (target, actor), keyed `<target>|<actor>` so finding "my reaction" is one
 * `_id` read. The target's `reactCount` and `reactSummary` ({emoji: count}) move with each
 * change by `$inc` on the target, so no recount scans the collection.
 */
import type { Models, ReactDoc } from '../models';
import { reactKey } from '../models/keys';
import { ObjectStore, type FoundRows, type PageRequest } from './objects';
export type { ReactState } from './react-state';

export type ReactRecord = ReactDoc & { id: string; createdAt?: Date };

export class ReactsStore extends ObjectStore<ReactRecord> {
  constructor(models: Models) {
    super(models.React);
  }

  /** The actor's reaction on a target, if any. */
  async mine(actorId: string, target: string): Promise<ReactRecord | null> {
    return this.model.findOne({ _id: reactKey(target, actorId) }).lean<ReactRecord>();
  }

  /** The actor's emoji on each of the targets (timeline pages): `_id` reads in parallel. */
  async mineOn(actorId: string, targets: string[]): Promise<Map<string, string>> {
    const rows = await Promise.all(targets.map((t) => this.mine(actorId, t)));
    return new Map(rows.filter((r): r is ReactRecord => !!r).map((r) => [r.target, r.emoji]));
  }

  /**
   * A reaction by its public id (`react:…`), which is not its key (`<target>|<actor>`): a scan,
   * used only by Update and Delete naming a reaction.
   */
  override async byId(id: string): Promise<ReactRecord | null> {
    if (typeof id !== 'string' || !id) return null;
    return this.model.findOne({ id }).lean<ReactRecord>();
  }

  override async set(id: string, fields: Record<string, unknown>): Promise<ReactRecord | null> {
    const r = await this.byId(id);
    if (!r) return null;
    return this.model
      .findOneAndUpdate({ _id: reactKey(r.target, r.actorId) }, { $set: fields }, { returnDocument: 'after' })
      .lean<ReactRecord>();
  }

  /** Removes a reaction named by its public id; the removed row, or null. */
  async removeById(id: string): Promise<ReactRecord | null> {
    const r = await this.byId(id);
    return r ? this.removeMine(r.actorId, r.target) : null;
  }

  /** Stores a new reaction; false when the actor already has one on the target (unique key). */
  async add(doc: Record<string, unknown> & { id: string; actorId: string; target: string; emoji: string }) {
    try {
      await this.model.create({ ...doc, _id: reactKey(doc.target, doc.actorId) });
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  async changeEmoji(existing: ReactRecord, emoji: string, name?: string): Promise<void> {
    await this.model.updateOne(
      { _id: reactKey(existing.target, existing.actorId) },
      { $set: { emoji, ...(name !== undefined ? { name } : {}) } },
    );
  }

  /** Removes the actor's reaction; the removed row, or null when there was none. */
  async removeMine(actorId: string, target: string): Promise<ReactRecord | null> {
    return this.model.findOneAndDelete({ _id: reactKey(target, actorId) }).lean<ReactRecord>();
  }

  /** GET /posts/:id/reacts: newest first (a scan by target; not a benchmarked path). */
  async pageForTarget(target: string, req: PageRequest): Promise<FoundRows<ReactRecord>> {
    return this.page({ target }, req, { createdAt: -1 }, { _id: 0, __v: 0 });
  }

  /** Removes every reaction on the targets (purged objects); how many. */
  async purgeForTargets(targets: string[]): Promise<number> {
    let n = 0;
    for (let i = 0; i < targets.length; i += 100)
      n += (await this.model.deleteMany({ target: { $in: targets.slice(i, i + 100) } })).deletedCount;
    return n;
  }

  /** Every stored reaction (GET /admin/system): a count over the collection, admin only. */
  async countAll(): Promise<number> {
    return this.model.countDocuments({});
  }

  /** Every reaction of an actor (account deletion): a scan. */
  async allByActor(actorId: string): Promise<ReactRecord[]> {
    return this.findAll({ actorId });
  }
}
