/**
 * Reactions over the engine port (ADR 0013): one per (target, actor), keyed `<target>|<actor>`,
 * so "my reaction" is one primary-key read and the key itself keeps a reaction exactly-once
 * under concurrent Reacts (the insert of the second fails on the key). A reaction's public id is
 * an indexed field (Update and Delete name a reaction by it). The target's `reactCount` and
 * `reactSummary` move with each change by `$inc` on the target (the caller's `reactDelta`), so no
 * recount scans the collection; an emoji change is a compare-and-set on the emoji read, so of
 * concurrent changes exactly one moves the summary. Each target's reactions are also a list
 * (`reacts:<target>`) that GET /posts/:id/reacts pages through.
 */
import type { CollectionSpec, Engine } from '../engine/port';
import { DuplicateKeyError } from '../engine/port';
import type { ListEntry, ListStore } from '../lists/store';
import { shownRow, type FoundRows, type PageRequest } from './object-collection';
import { ContentCollection, normaliseDates } from './content-collection';
import { DEFAULTS, type ReactDoc } from './content-records';
export type { ReactState } from './object-collection';

export type ReactRecord = ReactDoc & { createdAt?: Date; updatedAt?: Date };
type ReactRow = ReactRecord & { _id: string };

/** The key of one reaction: one per (target, actor). */
export const reactKey = (target: string, actorId: string): string => `${target}|${actorId}`;

export const reactsList = (target: string): string => `reacts:${target}`;

export const REACTS: CollectionSpec = {
  name: 'reacts',
  indexes: [
    { fields: [['id', 1]], unique: true, serves: 'a reaction by its public id (Update, Delete)' },
    { fields: [['actorId', 1]], serves: "an actor's reactions (account deletion, author copies)" },
    { fields: [['target', 1]], serves: 'the reactions on purged objects (purgeForTargets)' },
  ],
  dates: ['createdAt', 'updatedAt'],
};

/** Targets per delete of a purge: a bounded `$in`. */
const PURGE_CHUNK = 100;

export class ReactsStore extends ContentCollection<ReactRow> {
  constructor(
    engine: Engine,
    private readonly lists: ListStore,
  ) {
    super(engine, REACTS, DEFAULTS.react);
  }

  private async unlist(r: ReactRecord): Promise<void> {
    await this.lists.remove(reactsList(r.target), r.id);
  }

  /** The actor's reaction on a target, if any. */
  async mine(actorId: string, target: string): Promise<ReactRecord | null> {
    return this.rows.findOne({ _id: reactKey(target, actorId) });
  }

  /** The actor's emoji on each of the targets (timeline pages): one read by key. */
  async mineOn(actorId: string, targets: readonly string[]): Promise<Map<string, string>> {
    const keys = [...new Set(targets)].map((t) => reactKey(t, actorId));
    if (!keys.length) return new Map();
    const rows = await this.rows.find({ _id: { $in: keys } });
    return new Map(rows.map((r) => [r.target, r.emoji]));
  }

  /** A reaction by its public id (`react:…`), which is not its key. */
  override async byId(id: string): Promise<ReactRow | null> {
    if (typeof id !== 'string' || !id) return null;
    return this.rows.findOne({ id });
  }

  override async liveByIds(ids: readonly string[]): Promise<Map<string, ReactRow>> {
    const wanted = [...new Set(ids.filter((id) => typeof id === 'string' && id))];
    if (!wanted.length) return new Map();
    const rows = await this.rows.find({ id: wanted.length === 1 ? wanted[0]! : { $in: wanted } });
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Sets fields of the reaction named by its public id; the reaction after, or null. */
  override async set(id: string, fields: Record<string, unknown>): Promise<ReactRow | null> {
    const r = await this.byId(id);
    if (!r) return null;
    const set: Record<string, unknown> = { ...fields, updatedAt: new Date() };
    normaliseDates(set, REACTS.dates ?? []);
    return this.rows.findOneAndUpdate({ _id: r._id, id }, { $set: set as Record<string, string> });
  }

  /** Removes a reaction named by its public id (only while it is still that reaction); the row, or null. */
  async removeById(id: string): Promise<ReactRecord | null> {
    const r = await this.byId(id);
    if (!r) return null;
    const removed = await this.rows.findOneAndDelete({ _id: r._id, id });
    if (removed) await this.unlist(removed);
    return removed;
  }

  /** Stores a new reaction; false when the actor already has one on the target (its key). */
  async add(
    doc: Record<string, unknown> & { id: string; actorId: string; target: string; emoji: string },
  ): Promise<boolean> {
    const now = new Date();
    const row = {
      ...DEFAULTS.react(),
      ...doc,
      _id: reactKey(doc.target, doc.actorId),
      createdAt: now,
      updatedAt: now,
    } as ReactRow;
    try {
      await this.rows.insertOne(row);
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
    const entry: ListEntry = { id: doc.id, at: now, by: doc.actorId };
    await this.lists.append(reactsList(doc.target), [entry]);
    return true;
  }

  /**
   * Changes the emoji (and name) of a reaction as it was read: true when this call changed it,
   * false when it is no longer that reaction with that emoji (removed, or changed by a concurrent
   * call, which moved the summary instead); the caller reads again and retries.
   */
  async changeEmoji(existing: ReactRecord, emoji: string, name?: string): Promise<boolean> {
    const after = await this.rows.findOneAndUpdate(
      { _id: reactKey(existing.target, existing.actorId), id: existing.id, emoji: existing.emoji },
      { $set: { emoji, updatedAt: new Date(), ...(name !== undefined ? { name } : {}) } },
    );
    return after !== null;
  }

  /** Removes the actor's reaction; the removed row (for exactly one concurrent caller), or null. */
  async removeMine(actorId: string, target: string): Promise<ReactRecord | null> {
    const removed = await this.rows.findOneAndDelete({ _id: reactKey(target, actorId) });
    if (removed) await this.unlist(removed);
    return removed;
  }

  /**
   * GET /posts/:id/reacts: newest first. The target's list, then the page's reactions in one read
   * by key, each kept when it is still the one listed (not removed and made again since).
   */
  async pageForTarget(
    target: string,
    req: PageRequest,
    exceptAuthors: ReadonlySet<string> = new Set(),
    exceptCount?: number,
  ): Promise<FoundRows<ReactRecord>> {
    const key = reactsList(target);
    // Reactions by `exceptAuthors` (suspended accounts, ADR 0028) are skipped by their entry's
    // author; the total is the list's counter less `exceptCount` (theirs in it) when the caller
    // knows it, else it counts the others (the whole list read, only while one is skipped).
    const counting = exceptAuthors.size > 0 && exceptCount === undefined;
    const page: ListEntry[] = [];
    let skipped = 0;
    let shown = 0;
    for await (const e of this.lists.newest([key])) {
      if (e.by && exceptAuthors.has(e.by)) continue;
      shown++;
      if (skipped < req.skip) skipped++;
      else if (page.length < req.limit) page.push(e);
      else if (!counting) break;
    }
    const keys = page.flatMap((e) => (e.by ? [reactKey(target, e.by)] : []));
    const rows = keys.length ? await this.rows.find({ _id: { $in: keys } }) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = page.flatMap((e) => {
      const r = byId.get(e.id);
      return r ? [shownRow(r)] : [];
    });
    const total = counting ? shown : Math.max(0, (await this.lists.head(key)).count - (exceptCount ?? 0));
    return { total, items };
  }

  /** Removes every reaction on the targets (purged objects); how many. */
  async purgeForTargets(targets: readonly string[]): Promise<number> {
    for (const t of targets) await this.lists.drop(reactsList(t));
    let n = 0;
    for (let i = 0; i < targets.length; i += PURGE_CHUNK)
      n += await this.rows.deleteMany({ target: { $in: targets.slice(i, i + PURGE_CHUNK) } });
    return n;
  }

  /** Every stored reaction (GET /admin/system). */
  async countAll(): Promise<number> {
    return this.rows.count({});
  }

  /** Whether the actor has a reaction here (one read of the `actorId` index). */
  async anyBy(actorId: string): Promise<boolean> {
    return (await this.rows.findOne({ actorId }, { fields: ['id'] })) !== null;
  }

  /** Every reaction of an actor (account deletion). */
  async allByActor(actorId: string): Promise<ReactRecord[]> {
    return this.rows.find({ actorId });
  }
}
