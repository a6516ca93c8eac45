/**
 * Replies over the engine port (ADR 0013), and each thread as an ordered list (`thread:<root>`):
 * a thread page and the double-submit guard read the thread's list and then the replies they
 * need in one `$in` read, so they cost what the page needs, not what the collection holds. The
 * store keeps the list: a reply joins it when created or restored and leaves it when deleted
 * (stored first, then listed: a crash between leaves a reply the thread does not show yet).
 */
import type { CollectionSpec, Engine } from '../engine/port';
import type { ListEntry, ListStore } from '../lists/store';
import { shownRow, type FoundRows, type PageRequest } from './object-collection';
import { ContentCollection } from './content-collection';
import { DEFAULTS, type ReplyDoc, type Stamped } from './content-records';

export type ReplyRecord = ReplyDoc & Stamped;
type ReplyRow = ReplyRecord & { _id: string };

export const REPLIES: CollectionSpec = {
  name: 'replies',
  indexes: [
    {
      fields: [
        ['actorId', 1],
        ['deletedAt', 1],
      ],
      serves: 'author copies refreshed (refreshActorCopy); an account withdrawn (tombstoneByAuthor)',
    },
    { fields: [['deletedAt', 1]], serves: 'countLive; the GC (deletedAt before a cutoff)' },
  ],
  dates: ['deletedAt', 'createdAt', 'updatedAt'],
};

export const threadList = (rootId: string): string => `thread:${rootId}`;

function entryOf(r: Pick<ReplyRecord, 'id' | 'actorId' | 'createdAt'>): ListEntry {
  return { id: r.id, at: r.createdAt ? new Date(r.createdAt) : new Date(), by: r.actorId };
}

export class RepliesStore extends ContentCollection<ReplyRow> {
  constructor(
    engine: Engine,
    private readonly lists: ListStore,
  ) {
    super(engine, REPLIES, DEFAULTS.reply);
  }

  async create(doc: Record<string, unknown> & { id: string; target: string }): Promise<ReplyRecord> {
    const created = await this.insertNew(doc);
    await this.lists.append(threadList(doc.target), [entryOf(created)]);
    return created;
  }

  override async softDelete(
    id: string,
    fields: Record<string, unknown> & { deletedAt: Date },
  ): Promise<ReplyRow | null> {
    const before = await super.softDelete(id, fields);
    if (before) await this.unlist(before);
    return before;
  }

  override async restore(id: string, fields: Record<string, unknown> = {}): Promise<ReplyRow | null> {
    const after = await super.restore(id, fields);
    if (after?.target) await this.lists.append(threadList(after.target), [entryOf(after)]);
    return after;
  }

  override async hardDelete(id: string): Promise<boolean> {
    const doc = await this.byId(id);
    const deleted = await super.hardDelete(id);
    if (deleted && doc && !doc.deletedAt) await this.unlist(doc);
    return deleted;
  }

  private async unlist(r: ReplyRecord): Promise<void> {
    if (r.target) await this.lists.remove(threadList(r.target), r.id, entryOf(r).at);
  }

  /**
   * The actor's same reply to the same parent since `since` (double-submit guard): the thread's
   * newest entries back to `since`, the actor's among them read by `_id`.
   */
  async recentTwin(
    actorId: string,
    rootId: string,
    parent: string,
    content: string,
    since: Date,
  ): Promise<ReplyRecord | null> {
    const mine: string[] = [];
    for await (const e of this.lists.newest([threadList(rootId)])) {
      if (e.at < since) break;
      if (e.by === actorId) mine.push(e.id);
    }
    const found = await this.liveByIds(mine);
    return (
      mine.map((id) => found.get(id)).find((r) => r?.parent === parent && r.source?.content === content) ??
      null
    );
  }

  /** Whether the author has a live reply here (one read of the `(actorId, deletedAt)` index). */
  async anyLiveBy(actorId: string): Promise<boolean> {
    return (await this.rows.findOne({ actorId, deletedAt: null }, { fields: ['id'] })) !== null;
  }

  /** An author's live replies and their thread roots (a suspended account's share, ADR 0028). */
  async liveTargetsByAuthor(actorId: string): Promise<Array<Pick<ReplyRecord, 'id' | 'target'>>> {
    return this.rows.find({ actorId, deletedAt: null }, { fields: ['id', 'target'] });
  }

  /**
   * GET /posts/:id/replies: a thread, oldest first, read from the start of its list up to the
   * end of the page (not the whole list). Replies by `exceptAuthors` (suspended accounts, ADR
   * 0028) are skipped by their entry's author. The total is the list's counter less
   * `exceptCount`, the skipped authors' replies in it when the caller knows them; otherwise it
   * counts the thread's other entries (a read of the whole list, only while someone is skipped).
   */
  async pageForThread(
    rootId: string,
    req: PageRequest,
    exceptAuthors: ReadonlySet<string> = new Set(),
    exceptCount?: number,
  ): Promise<FoundRows<ReplyRecord>> {
    const key = threadList(rootId);
    const counting = exceptAuthors.size > 0 && exceptCount === undefined;
    const page: string[] = [];
    let skipped = 0;
    let shown = 0;
    for await (const e of this.lists.oldest(key)) {
      if (e.by && exceptAuthors.has(e.by)) continue;
      shown++;
      if (skipped < req.skip) skipped++;
      else if (page.length < req.limit) page.push(e.id);
      else if (!counting) break;
    }
    const found = await this.liveByIds(page);
    const items = page.flatMap((id) => {
      const r = found.get(id);
      return r ? [shownRow(r)] : [];
    });
    const total = counting ? shown : Math.max(0, (await this.lists.head(key)).count - (exceptCount ?? 0));
    return { total, items };
  }
}
