/**
 * Reactions: one per (target, actor), keyed `<target>|<actor>` so finding "my reaction" is one
 * `_id` read. The target's `reactCount` and `reactSummary` ({emoji: count}) move with each
 * change by `$inc` on the target, so no recount scans the collection. Each target's reactions
 * are also a list (`reacts:<target>`, entries by actor) that GET /posts/:id/reacts pages through.
 * A reaction's public id leads to its key through `react_ids` (one `_id` read, ADR 0011 item 15).
 */
import type { ListEntry, ListStore } from '../lists/store';
import type { Models, ReactDoc } from '../models';
import { reactKey } from '../models/keys';
import { ObjectStore, shown, WRITE_CHUNK, type FoundRows, type PageRequest } from './objects';
export type { ReactState } from './react-state';

export type ReactRecord = ReactDoc & { id: string; createdAt?: Date };

export const reactsList = (target: string): string => `reacts:${target}`;

export class ReactsStore extends ObjectStore<ReactRecord> {
  constructor(
    private readonly models: Models,
    private readonly lists: ListStore,
  ) {
    super(models.React);
  }

  private async unlist(r: ReactRecord): Promise<void> {
    await this.lists.remove(reactsList(r.target), r.id, r.createdAt ? new Date(r.createdAt) : new Date(0));
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
   * A reaction by its public id (`react:…`), which is not its key (`<target>|<actor>`): the id's
   * entry in `react_ids`, then the reaction by its key, kept when it is still that reaction (not
   * removed and made again since). Update and Delete name a reaction this way.
   */
  override async byId(id: string): Promise<ReactRecord | null> {
    if (typeof id !== 'string' || !id) return null;
    const ref = await this.models.ReactId.findOne({ _id: id }).lean<{ key: string }>();
    if (!ref) return null;
    const r = await this.model.findOne({ _id: ref.key }).lean<ReactRecord>();
    return r?.id === id ? r : null;
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
      const key = reactKey(doc.target, doc.actorId);
      const created = (await this.model.create({ ...doc, _id: key })) as { createdAt?: Date };
      await this.models.ReactId.updateOne({ _id: doc.id }, { $set: { key } }, { upsert: true });
      await this.lists.append(reactsList(doc.target), [
        { id: doc.id, at: created.createdAt ?? new Date(), by: doc.actorId },
      ]);
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
    const removed = await this.model.findOneAndDelete({ _id: reactKey(target, actorId) }).lean<ReactRecord>();
    if (removed) {
      await this.unlist(removed);
      await this.models.ReactId.deleteOne({ _id: removed.id });
    }
    return removed;
  }

  /**
   * GET /posts/:id/reacts: newest first. The target's list, then each reaction by its key
   * (`<target>|<actor>`), kept when it is still the one listed (not removed and made again).
   */
  async pageForTarget(target: string, req: PageRequest): Promise<FoundRows<ReactRecord>> {
    const key = reactsList(target);
    const page: ListEntry[] = [];
    let skipped = 0;
    for await (const e of this.lists.newest([key])) {
      if (skipped < req.skip) skipped++;
      else if (page.length < req.limit) page.push(e);
      else break;
    }
    const rows = await Promise.all(page.map((e) => (e.by ? this.mine(e.by, target) : Promise.resolve(null))));
    // Kept when it is still the reaction listed (not removed and made again since).
    const items = rows.flatMap((r, i) => (r && r.id === page[i]!.id ? [shown(r)] : []));
    return { total: (await this.lists.head(key)).count, items };
  }

  /** Removes every reaction on the targets (purged objects); how many. */
  async purgeForTargets(targets: string[]): Promise<number> {
    for (const t of targets) await this.lists.drop(reactsList(t));
    let n = 0;
    for (let i = 0; i < targets.length; i += 100) {
      const filter = { target: { $in: targets.slice(i, i + 100) } };
      const ids = (await this.model.find(filter, { id: 1 }).lean<Array<{ id: string }>>()).map((r) => r.id);
      n += (await this.model.deleteMany(filter)).deletedCount;
      for (let j = 0; j < ids.length; j += WRITE_CHUNK)
        await this.models.ReactId.bulkWrite(
          ids.slice(j, j + WRITE_CHUNK).map((id) => ({ deleteOne: { filter: { _id: id } } })),
        );
    }
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
