/**
 * Replies, and each thread as an ordered list (`thread:<root>`, ADR 0005's bucket pattern): a
 * thread page and the double-submit guard read the thread's list and then the replies they need
 * by `_id`, so they cost what the thread holds, not what the collection holds (on FerretDB every
 * other filter is a scan of every reply). The store keeps the list: a reply joins it when created
 * or restored and leaves it when deleted.
 */
import type { ListEntry, ListStore } from '../lists/store';
import type { Models, ReplyDoc } from '../models';
import { ObjectStore, shown, type FoundRows, type PageRequest } from './objects';

export type ReplyRecord = ReplyDoc & { id: string; createdAt?: Date; updatedAt?: Date };

export const threadList = (rootId: string): string => `thread:${rootId}`;

function entryOf(r: Pick<ReplyRecord, 'id' | 'actorId' | 'createdAt'>): ListEntry {
  return { id: r.id, at: r.createdAt ? new Date(r.createdAt) : new Date(), by: r.actorId };
}

export class RepliesStore extends ObjectStore<ReplyRecord> {
  constructor(
    models: Models,
    private readonly lists: ListStore,
  ) {
    super(models.Reply);
  }

  async create(doc: Record<string, unknown> & { id: string; target: string }): Promise<ReplyRecord> {
    const created = await this.insert(doc);
    await this.lists.append(threadList(doc.target), [entryOf(created)]);
    return created;
  }

  override async softDelete(
    id: string,
    fields: Record<string, unknown> & { deletedAt: Date },
  ): Promise<ReplyRecord | null> {
    const before = await super.softDelete(id, fields);
    if (before) await this.unlist(before);
    return before;
  }

  override async restore(id: string, fields: Record<string, unknown> = {}): Promise<ReplyRecord | null> {
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

  /**
   * GET /posts/:id/replies: a thread, oldest first, read from the start of its list up to the
   * end of the page (not the whole list).
   */
  async pageForThread(rootId: string, req: PageRequest): Promise<FoundRows<ReplyRecord>> {
    const key = threadList(rootId);
    const page: string[] = [];
    let skipped = 0;
    for await (const e of this.lists.oldest(key)) {
      if (skipped < req.skip) skipped++;
      else if (page.length < req.limit) page.push(e.id);
      else break;
    }
    const found = await this.liveByIds(page);
    const items = page.flatMap((id) => {
      const r = found.get(id);
      return r ? [shown(r)] : [];
    });
    return { total: (await this.lists.head(key)).count, items };
  }

  async countLive(): Promise<number> {
    return this.model.countDocuments({ deletedAt: null });
  }
}
