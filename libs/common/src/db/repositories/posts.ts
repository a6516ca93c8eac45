/**
 * Posts, over the engine port (ADR 0013). Creating, editing and deleting a post keeps its lists
 * in step (the author's list, the local public and server lists, and the timeline of every circle
 * its author is in), the author's counter and the read-cache stamps: no caller can forget one.
 * GET /posts and an author's posts read the lists, so a page costs O(page) whatever the number
 * of posts; a pull reads the posts collection by an index of its own (`POSTS`).
 *
 * Order of writes (no transaction spans documents): the post is stored first, then listed, then
 * counted; a crash in between leaves a post its lists do not show yet (a retried create fails on
 * the duplicate id), never a list entry without its post.
 */
import type { Engine, Filter } from '../engine/port';
import { pullPage, pullTombstones } from './posts-pull';
import { takePage, topIds } from './post-pages';
import type { DeletedMode } from './listing';
import { STAMPS } from '../../cache/stamps';
import type { ListAppend, ListEntry, ListStore } from '../lists/store';
import type { FoundRows, PageRequest } from './object-collection';
import { ContentCollection } from './content-collection';
import { DEFAULTS } from './content-records';
import {
  entryOf,
  LISTS,
  POSTS,
  type PullScope,
  tierTag,
  typeTag,
  type Bump,
  type LocalPostFilter,
  type PostLoader,
  type PostRecord,
  timelineAppends,
} from './post-lists';
import type { UsersStore } from './users';
import type { CirclesStore } from './circles';

export * from './post-lists';

type PostRow = PostRecord & { _id: string };

export class PostsStore extends ContentCollection<PostRow> {
  constructor(
    engine: Engine,
    private readonly lists: ListStore,
    private readonly users: Pick<UsersStore, 'bumpCounter' | 'bumpCounters'>,
    /** The membership index: the circles whose timelines a post of an author goes to. */
    private readonly circles: Pick<CirclesStore, 'membershipsOf'>,
    private readonly domain: string,
    private readonly bumpStamps: Bump,
  ) {
    super(engine, POSTS, DEFAULTS.post);
  }

  /**
   * The circles a post of this author goes to (the membership index: one read). Only this
   * server's circles are timelines: another server's circles cached here (federation) hold
   * members only to say who may read what was addressed to them.
   */
  private async circlesFor(actorId: string): Promise<string[]> {
    const local = `@${this.domain}`;
    return (await this.circles.membershipsOf(actorId)).circles.filter((id) => id.endsWith(local));
  }

  /** Appends an existing post (restored) to the timeline of every circle its author is in now. */
  private async fanOut(p: PostRecord): Promise<string[]> {
    const circles = await this.circlesFor(p.actorId);
    if (!circles.length) return [];
    await this.lists.appendAll(timelineAppends(p, circles, this.domain));
    await this.addCircles(p.id, circles);
    await this.bumpStamps(circles.map(STAMPS.circle));
    return circles;
  }

  private tierList(to: string | null | undefined): string | null {
    if (to === '@public') return LISTS.public;
    if (to === `@${this.domain}`) return LISTS.server;
    return null;
  }

  private tags(p: Pick<PostRecord, 'to' | 'type'>): string[] {
    return [tierTag(p.to, this.domain), typeTag(p.type)];
  }

  /**
   * A local post: stored, listed under its author and tier, counted on the author, and appended
   * to the timeline of every circle the author is in, all before this resolves (one indexed
   * insert per list: ADR 0013).
   */
  async createLocal(
    doc: Record<string, unknown> & { id: string; actorId: string },
    known: { circles?: string[] } = {},
  ): Promise<PostRecord> {
    const post = await this.createListed(doc, known.circles);
    // Others see only the count of public posts (a total would reveal that private ones exist).
    await this.users.bumpCounters(post.actorId, {
      postCount: 1,
      ...(post.to === '@public' ? { publicPostCount: 1 } : {}),
    });
    return post;
  }

  /**
   * A copy of another server's post (inbound federation): listed under its author and fanned
   * out to the local circles its author is in, or to `circles` when the caller chose them (a
   * post not everyone here may read goes only to timelines whose owner may).
   */
  async createRemote(
    doc: Record<string, unknown> & { id: string; actorId: string },
    circles?: string[],
  ): Promise<PostRecord> {
    return this.createListed(doc, circles);
  }

  /**
   * Stores a new post with the circles its fan-out reaches (read first from the membership
   * index unless the caller already holds them, so the post is written once), then appends it
   * to every list at once: its author's, its tier's (local posts) and each circle's timeline,
   * one batch (ListStore.appendAll).
   */
  private async createListed(
    doc: Record<string, unknown> & { id: string; actorId: string },
    known?: string[],
  ) {
    // Only this server's circles are timelines (another server's, cached here, are not).
    const circles = (known ?? (await this.circlesFor(doc.actorId))).filter((id) =>
      id.endsWith(`@${this.domain}`),
    );
    const post = await this.insertNew({ ...doc, circles });
    await this.lists.appendAll([...this.listAppends(post), ...timelineAppends(post, circles, this.domain)]);
    await this.touch({ id: post.id, circles });
    return post;
  }

  private listAppends(post: PostRecord): ListAppend[] {
    const entries = [entryOf(post)];
    const tags = this.tags(post);
    const tier = this.tierList(post.to);
    return [
      { key: LISTS.author(post.actorId), entries, tags },
      ...(tier && !post.originDomain ? [{ key: tier, entries, tags }] : []),
      ...(post.group ? [{ key: LISTS.group(post.group), entries, tags }] : []),
    ];
  }

  private async listPost(post: PostRecord): Promise<void> {
    await this.lists.appendAll(this.listAppends(post));
  }

  private async unlistPost(post: PostRecord, opts: { timelines: boolean }): Promise<void> {
    const entry = entryOf(post);
    const tags = this.tags(post);
    await this.lists.remove(LISTS.author(post.actorId), post.id, entry.at, tags);
    const tier = this.tierList(post.to);
    if (tier && !post.originDomain) await this.lists.remove(tier, post.id, entry.at, tags);
    if (post.group) await this.lists.remove(LISTS.group(post.group), post.id, entry.at, tags);
    if (opts.timelines)
      for (const c of post.circles ?? []) await this.lists.remove(LISTS.circle(c), post.id, entry.at, tags);
  }

  /**
   * Changes a post. A change of audience or type moves it between the lists that count by them;
   * every cached page holding it goes stale.
   */
  async update(id: string, set: Record<string, unknown>, unset: string[] = []): Promise<PostRecord | null> {
    const before = await this.liveById(id);
    if (!before) return null;
    const after = await this.set(id, set, unset);
    if (!after) return null;
    if (before.to !== after.to || before.type !== after.type) {
      // Circle timelines keep their entries: membership, not audience, put them there.
      await this.unlistPost(before, { timelines: false });
      await this.listPost(after);
      if (!after.originDomain && (before.to === '@public') !== (after.to === '@public'))
        await this.users.bumpCounter(after.actorId, 'publicPostCount', after.to === '@public' ? 1 : -1);
    }
    await this.touch(after);
    return after;
  }

  /** Soft-deletes: out of every list and timeline at once; the record before, or null. */
  async softDeletePost(id: string, deletedBy: string): Promise<PostRecord | null> {
    // The type is kept beside the Tombstone, so a restore (by an admin) brings it back.
    const current = await this.byId(id);
    const former = current?.type && current.type !== 'Tombstone' ? { formerType: current.type } : {};
    const before = await this.softDelete(id, {
      deletedAt: new Date(),
      deletedBy,
      type: 'Tombstone',
      ...former,
    });
    if (!before) return null;
    await this.unlistPost(before, { timelines: true });
    if (!before.originDomain) {
      await this.users.bumpCounters(before.actorId, {
        postCount: -1,
        ...(before.to === '@public' ? { publicPostCount: -1 } : {}),
      });
    }
    await this.touch(before);
    return before;
  }

  /**
   * Un-deletes (admin moderation): the post gets its type back, returns to its author's and
   * tier's lists and to the timelines of the circles its author is in now; the record after.
   */
  async restorePost(id: string): Promise<PostRecord | null> {
    const current = await this.byId(id);
    if (!current?.deletedAt) return null;
    const type = current.formerType || (current.type === 'Tombstone' ? 'Note' : current.type);
    const after = await this.restore(id, { type, circles: [] });
    if (!after) return null;
    await this.set(id, {}, ['formerType']);
    await this.listPost(after);
    if (!after.originDomain) await this.users.bumpCounter(after.actorId, 'postCount', 1);
    const circles = await this.fanOut(after);
    await this.touch({ id, circles });
    return this.byId(id);
  }

  /** Removes a post for good (admin full delete): out of every list first if it was live. */
  async purgePost(id: string): Promise<boolean> {
    const post = await this.byId(id);
    if (!post) return false;
    if (!post.deletedAt) {
      await this.unlistPost(post, { timelines: true });
      if (!post.originDomain) await this.users.bumpCounter(post.actorId, 'postCount', -1);
    }
    await this.touch(post);
    return this.hardDelete(id);
  }

  /** GET /admin/posts (a scan: admin list). */
  async pageForAdmin(
    q: { deleted: DeletedMode; tiersOnly: boolean; type?: string | undefined; actorId?: string | undefined },
    req: PageRequest,
  ): Promise<FoundRows<PostRecord>> {
    // The most selective index read (an author's, or the live ones), the other filters in memory.
    const base: Filter = q.actorId ? { actorId: q.actorId } : q.deleted === 'live' ? { deletedAt: null } : {};
    const tiers = new Set(['@public', `@${this.domain}`]);
    const keep = (p: PostRecord) =>
      (q.deleted === 'include' || (q.deleted === 'deleted') === !!p.deletedAt) &&
      (!q.tiersOnly || tiers.has(p.to)) &&
      (!q.type || p.type === q.type);
    return this.scanPage(base, keep, req, [
      ['createdAt', -1],
      ['_id', -1],
    ]);
  }

  /** Every cached page or post copy holding this post is stale. */
  async touch(post: Pick<PostRecord, 'id' | 'circles'>): Promise<void> {
    await this.bumpStamps([STAMPS.post(post.id), ...(post.circles ?? []).map(STAMPS.circle)]);
  }

  async touchById(id: string): Promise<void> {
    const p = await this.byId(id);
    if (p) await this.touch(p);
  }

  /** Records that a circle's timeline holds the post (fan-out, backfill). */
  async addCircles(id: string, circleIds: string[]): Promise<void> {
    // One `$addToSet` per circle (the port adds one value at a time); each is atomic and idempotent.
    await Promise.all(
      [...new Set(circleIds)].map((c) => this.rows.updateOne({ _id: id }, { $addToSet: { circles: c } })),
    );
  }

  /** The counter of a post's replies. */
  async bumpReplies(id: string, by: 1 | -1): Promise<void> {
    await this.bump(id, 'replyCount', by);
    await this.touchById(id);
  }

  /** GET /posts: local public (and server) posts, newest first, O(page) through the lists. */
  async pageLocal(f: LocalPostFilter, req: PageRequest): Promise<FoundRows<PostRecord>> {
    const keys = f.tiers.map((t) => (t === 'public' ? LISTS.public : LISTS.server));
    const { heads, entries } = await this.lists.open(keys);
    const types = f.types?.length ? new Set(f.types) : null;
    const counted = (h: { count: number; tags: Record<string, number> }) =>
      types ? [...types].reduce((s, t) => s + Math.max(0, h.tags[typeTag(t)] ?? 0), 0) : h.count;
    const total = heads.reduce((s, h) => s + counted(h), 0);
    const items: PostRecord[] = [];
    let skipped = 0;
    let matched = 0;
    const done = () => ({ total: f.since ? matched : total, items });
    for await (const batch of this.liveBatches(entries)) {
      for (const p of batch) {
        if (types && !types.has(p.type ?? 'Note')) continue;
        if (f.exceptAuthors?.has(p.actorId)) continue;
        // Newest first: the first post before `since` ends the range (and its count).
        if (f.since && p.publishedAt && new Date(p.publishedAt) < f.since) return done();
        matched++;
        if (skipped < req.skip) skipped++;
        else if (items.length < req.limit) items.push(p);
        else if (!f.since) return done();
      }
    }
    return done();
  }

  /**
   * An author's posts the viewer may read, newest first (`visible` decides per post). The total
   * counts only the tiers the caller says the viewer sees (never posts it cannot see).
   */
  async pageByAuthor(
    authorId: string,
    visible: (p: PostRecord) => boolean,
    counted: Array<'to.public' | 'to.server' | 'to.other'> | 'matching',
    req: PageRequest & { since?: Date },
  ): Promise<FoundRows<PostRecord>> {
    const head = await this.lists.head(LISTS.author(authorId));
    const exact = counted === 'matching';
    let total = exact ? 0 : counted.reduce((s, t) => s + Math.max(0, head.tags[t] ?? 0), 0);
    const items: PostRecord[] = [];
    let skipped = 0;
    for await (const batch of this.liveBatches(this.lists.newest([LISTS.author(authorId)]))) {
      for (const p of batch) {
        // Newest first: the first post before `since` ends the range.
        if (req.since && p.publishedAt && new Date(p.publishedAt) < req.since) return { total, items };
        if (!visible(p)) continue;
        if (exact) total++;
        if (skipped < req.skip) skipped++;
        else if (items.length < req.limit) items.push(p);
        else if (!exact) return { total, items };
      }
    }
    return { total, items };
  }

  /**
   * An author's posts the viewer may read by reactions, most first, then newest (GET
   * /users/:id/posts?sort=top). The author's list, read newest first (up to `since`), not the
   * posts collection: O(the author's posts), never a scan of everyone's. Only each match's id,
   * reaction count and time are kept while reading; the page's posts are read again by `_id`.
   */
  async pageTopByAuthor(
    authorId: string,
    visible: (p: PostRecord) => boolean,
    req: PageRequest & { since?: Date },
  ): Promise<FoundRows<PostRecord>> {
    const list = this.liveBatches(this.lists.newest([LISTS.author(authorId)]), 100);
    const { total, ids } = await topIds(list, visible, req);
    const found = await this.liveByIds(ids);
    return { total, items: ids.flatMap((id) => found.get(id) ?? []) };
  }

  /** An author's newest live posts (backfill of a new circle member). */
  async newestByAuthor(authorId: string, n: number): Promise<PostRecord[]> {
    return takePage(this.liveBatches(this.lists.newest([LISTS.author(authorId)])), { skip: 0, limit: n });
  }

  /**
   * Live posts of entries, read in batches by `_id`, in list order. `batchSize` may be a function,
   * asked before each batch (a page reads only about as many more posts as it still needs).
   */
  async *liveBatches(
    entries: AsyncIterable<ListEntry>,
    batchSize: number | (() => number) = 25,
    load: PostLoader = (ids) => this.liveByIds(ids),
  ): AsyncGenerator<PostRecord[]> {
    let size = typeof batchSize === 'function' ? batchSize() : batchSize;
    let ids: string[] = [];
    const flush = async () => {
      const found = await load(ids);
      const out = ids.map((id) => found.get(id)).filter((p): p is PostRecord => !!p);
      ids = [];
      return out;
    };
    for await (const e of entries) {
      ids.push(e.id);
      if (ids.length >= size) {
        yield await flush();
        size = typeof batchSize === 'function' ? batchSize() : batchSize;
      }
    }
    if (ids.length) yield await flush();
  }

  /** A remote post copy by the id its origin gave it. */
  async remoteCopy(id: string): Promise<PostRecord | null> {
    const p = await this.byId(id);
    return p?.originDomain ? p : null;
  }

  /**
   * A group's posts (GET /groups/:id/posts), newest first, optionally of some types: the group's
   * list, then its posts by `_id`; the total from the list's counters.
   */
  async pageForGroup(
    groupId: string,
    types: string[] | undefined,
    req: PageRequest,
    exceptAuthors: ReadonlySet<string> = new Set(),
  ): Promise<FoundRows<PostRecord>> {
    const { heads, entries } = await this.lists.open([LISTS.group(groupId)]);
    const head = heads[0]!;
    const only = types?.length ? new Set(types) : null;
    const total = only
      ? [...only].reduce((n, t) => n + Math.max(0, head.tags[typeTag(t)] ?? 0), 0)
      : head.count;
    const keep = (p: PostRecord) => (!only || only.has(p.type ?? 'Note')) && !exceptAuthors.has(p.actorId);
    return { total, items: await takePage(this.liveBatches(entries), req, keep) };
  }

  /** A pull's posts (federation, views/pull.ts): see posts-pull.ts. */
  pullFor(scope: PullScope): Promise<PostRecord[]> {
    return pullPage(this.rows, scope);
  }

  /** Ids of the scope's posts deleted since a date (a pull's `tombstones`). */
  deletedFor(scope: Pick<PullScope, 'authors' | 'audiences'>, since: Date): Promise<string[]> {
    return pullTombstones(this.rows, scope, since);
  }

  /** Whether the author has a live post here (one read of the `(actorId, deletedAt)` index). */
  async anyLiveBy(authorId: string): Promise<boolean> {
    return (await this.rows.findOne({ actorId: authorId, deletedAt: null }, { fields: ['id'] })) !== null;
  }

  /** Every live post of an author (account deletion, author copies refresh): a scan. */
  async allByAuthor(authorId: string): Promise<PostRecord[]> {
    return this.rows.find({ actorId: authorId, deletedAt: null });
  }

  /**
   * A user's shares of a post (ADR 0024), live and undone ones not yet purged: a read of one
   * index, a handful of posts (one live at most, and the tombstones of recent undos).
   */
  async sharesOf(actorId: string, original: string): Promise<PostRecord[]> {
    return this.rows.find({ actorId, shareOf: original });
  }

  /**
   * Ids of the copies of a server's posts, live (`deletedBy` null) or deleted by `deletedBy` (a
   * domain block hides them, its lifting restores them): a read of one index.
   */
  async copiesFrom(domain: string, deletedBy: string | null): Promise<string[]> {
    const rows = await this.rows.find(
      { originDomain: domain, deletedBy, ...(deletedBy === null ? { deletedAt: null } : {}) },
      { fields: ['id'] },
    );
    return rows.map((r) => r.id);
  }

  /** Refreshes the author copy on every post of theirs. */
  async refreshAuthorCopy(authorId: string, actor: Record<string, unknown>): Promise<number> {
    return this.rows.updateMany({ actorId: authorId }, { $set: { actor: actor as Record<string, string> } });
  }
}
