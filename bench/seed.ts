/**
 * Seeds users' posts, circles and their lists straight into the database (fast, the shapes the
 * stores write): posts keyed by id, the author, public and server lists and the circle
 * timelines as list rows inserted in bulk with their counters; circles and their memberships
 * through their store.
 */
import mongoose from 'mongoose';
import {
  CirclesStore,
  STORE_SPECS,
  entryKey,
  LIST_COUNTS,
  LIST_ENTRIES,
  LISTS,
  REPLIES,
  mintId,
  POSTS,
  type PostRecord,
  threadList,
  tierTag,
  type ListCountRow,
  type ListEntry,
  type ListEntryRow,
} from '@agora/common/db';
import { mongoEngine, openSqlite, type Engine } from '@agora/common/db/engine';
import { ensurePostgresIdIndexes } from '../test/harness/postgres-indexes';

/**
 * The engine of a running server's database: `target` is a MongoDB URL, or the SQLite file of the
 * embedded default (opened beside the server: SQLite serialises the two processes' writers).
 */
async function openTarget(target: string): Promise<{ engine: Engine; close: () => Promise<void> }> {
  if (!target.startsWith('mongodb')) {
    const engine = openSqlite({ path: target });
    return { engine, close: () => engine.close() };
  }
  const conn = await mongoose.createConnection(target).asPromise();
  return { engine: mongoEngine(conn.db!), close: () => conn.close() };
}

export interface SeedResult {
  circleId: string;
  ownerId: string;
}

export async function seed(
  /** A MongoDB URL or a SQLite file. */
  target: string,
  domain: string,
  opts: {
    posts: number;
    members: number;
    circles: number;
    ownerId: string;
    /** Circles (besides the bench circle) the owner is a member of: their posts fan out to them. */
    ownerCircles?: number;
  },
): Promise<SeedResult> {
  const { engine, close } = await openTarget(target);
  await engine.ensure(STORE_SPECS);
  const members = Array.from({ length: opts.members }, (_, i) => `@member${i}@${domain}`);
  // Circles through their store (its rows and reverse index are the stores' own shapes).
  const circles = new CirclesStore(engine, domain);
  const bench = await circles.create({
    name: 'Bench circle',
    actorId: opts.ownerId,
    to: opts.ownerId,
    members: members.map((id) => ({ id })),
  });
  const circleId = bench.id;
  const otherCircles: string[] = [];
  for (let i = 0; i < opts.circles - 1; i++) {
    const c = await circles.create({ name: `c${i}`, actorId: members[i % members.length]!, to: '@public' });
    otherCircles.push(c.id);
  }
  for (const id of otherCircles.slice(0, opts.ownerCircles ?? 0))
    await circles.addMember(id, { id: opts.ownerId });
  const batch = 5000;
  const start = Date.now() - opts.posts * 1000;
  const audiences = ['@public', `@${domain}`, circleId];
  for (let done = 0; done < opts.posts; done += batch) {
    const posts: Array<PostRecord & { _id: string }> = [];
    // Per list: its rows, and its counters by tier tag.
    const byList = new Map<string, { entries: ListEntry[]; tags: Record<string, number> }>();
    const add = (key: string, e: ListEntry, tag: string) => {
      const list = byList.get(key) ?? { entries: [], tags: {} };
      list.entries.push(e);
      list.tags[tag] = (list.tags[tag] ?? 0) + 1;
      byList.set(key, list);
    };
    for (let i = done; i < Math.min(opts.posts, done + batch); i++) {
      const id = mintId('post', domain);
      const actorId = members[i % members.length]!;
      const to = audiences[i % audiences.length]!;
      const publishedAt = new Date(start + i * 1000);
      const other = otherCircles[i % otherCircles.length]!;
      posts.push({
        _id: id,
        id,
        actorId,
        to,
        canReply: to,
        canReact: to,
        type: 'Note',
        objectType: 'Post',
        source: { content: `post ${i}`, mediaType: 'text/markdown' },
        body: `<p>post ${i}</p>`,
        originDomain: null,
        group: null,
        attachments: [],
        tags: [],
        replyCount: 0,
        reactCount: 0,
        reactSummary: {},
        deletedAt: null,
        publishedAt,
        createdAt: publishedAt,
        updatedAt: publishedAt,
        circles: [circleId, other],
      });
      const e = { id, at: publishedAt, by: actorId };
      const tag = tierTag(to, domain);
      add(LISTS.author(actorId), e, tag);
      add(LISTS.circle(circleId), e, tag);
      add(LISTS.circle(other), e, tag);
      if (to === '@public') add(LISTS.public, e, tag);
      if (to === `@${domain}`) add(LISTS.server, e, tag);
    }
    await engine.collection<PostRecord & { _id: string }>(POSTS).insertMany(posts);
    for (const [key, { entries, tags }] of byList)
      await writeList(engine, key, entries, { ...tags, 'type.Note': entries.length });
  }
  await close();
  // The bench's FerretDB runs on PostgreSQL: the GIN `_id` indexes its pushdown can use (ADR 0004).
  const pg = process.env.TEST_POSTGRES_URL;
  if (pg && target.startsWith('mongodb'))
    await ensurePostgresIdIndexes(pg, new URL(target).pathname.slice(1));
  return { circleId, ownerId: opts.ownerId };
}

/**
 * Rows of one list and its counters, as ListStore stores them (lists/collections.ts), in bulk:
 * `count` is the entries, `tags` each tag's share.
 */
async function writeList(
  engine: Engine,
  key: string,
  entries: ListEntry[],
  tags: Record<string, number>,
): Promise<void> {
  const rows = entries.map((e): ListEntryRow => ({
    _id: entryKey(key, e.id),
    list: key,
    item: e.id,
    at: e.at,
    ...(e.by ? { by: e.by } : {}),
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await engine.collection<ListEntryRow>(LIST_ENTRIES).insertMany(rows.slice(i, i + 1000));
  const inc: Record<string, number> = { count: entries.length };
  for (const [t, n] of Object.entries(tags)) inc[`tags.${t}`] = n;
  await engine.collection<ListCountRow>(LIST_COUNTS).updateOne({ _id: key }, { $inc: inc }, { upsert: true });
}

/**
 * `n` replies straight into the collection with their thread lists: 50 in the root's thread, the
 * others 200 to a thread elsewhere.
 */
export async function seedReplies(
  /** A MongoDB URL or a SQLite file. */
  target: string,
  domain: string,
  rootId: string,
  actorId: string,
  n: number,
): Promise<void> {
  const { engine, close } = await openTarget(target);
  await engine.ensure(STORE_SPECS);
  const replies = engine.collection<{ _id: string; [k: string]: unknown }>(REPLIES);
  const start = Date.now() - n * 1000;
  for (let done = 0; done < n; done += 1000) {
    const docs = Array.from({ length: Math.min(1000, n - done) }, (_, j) => {
      const i = done + j;
      const target = i < 50 ? rootId : `post:elsewhere${Math.floor(i / 200)}@${domain}`;
      const id = `reply:seed${i}@${domain}`;
      const at = new Date(start + i * 1000);
      return {
        _id: id,
        id,
        actorId,
        target,
        parent: target,
        source: { content: `seeded reply ${i}`, mediaType: 'text/markdown' },
        body: `<p>seeded reply ${i}</p>`,
        deletedAt: null,
        createdAt: at,
        updatedAt: at,
      };
    });
    await replies.insertMany(docs);
    const threads = new Map<string, ListEntry[]>();
    for (const d of docs)
      threads.set(d.target, [...(threads.get(d.target) ?? []), { id: d.id, at: d.createdAt, by: d.actorId }]);
    for (const [root, entries] of threads) await writeList(engine, threadList(root), entries, {});
  }
  await close();
}
