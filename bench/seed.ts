/**
 * Seeds users' posts, circles and their lists straight into the database (fast, the shapes the
 * stores write): posts keyed by id, the author, public and server lists and the circle
 * timelines appended in bulk, the membership index for the bench circle's members.
 */
import mongoose from 'mongoose';
import {
  LISTS,
  ListStore,
  mintId,
  registerModels,
  syncIndexes,
  tierTag,
  type ListEntry,
} from '@agora/common/db';
import { ensurePostgresIdIndexes } from '../test/harness/postgres-indexes';

export interface SeedResult {
  circleId: string;
  ownerId: string;
}

export async function seed(
  mongoUrl: string,
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
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  const m = registerModels(conn);
  await syncIndexes(m);
  const lists = new ListStore(m.ListHead, m.ListBucket);
  const members = Array.from({ length: opts.members }, (_, i) => `@member${i}@${domain}`);
  const circleId = mintId('circle', domain);
  await m.Circle.create({
    _id: circleId,
    id: circleId,
    name: 'Bench circle',
    actorId: opts.ownerId,
    to: opts.ownerId,
    members: members.map((id) => ({ id })),
    memberCount: members.length,
  });
  const otherCircles = Array.from({ length: opts.circles - 1 }, () => mintId('circle', domain));
  await m.Circle.insertMany(
    otherCircles.map((id, i) => ({
      _id: id,
      id,
      name: `c${i}`,
      actorId: members[i % members.length]!,
      to: '@public',
      members: [],
    })),
  );
  for (const id of members)
    await m.Membership.updateOne({ _id: id }, { $addToSet: { circles: circleId } }, { upsert: true });
  const ownerIn = otherCircles.slice(0, opts.ownerCircles ?? 0);
  for (const id of ownerIn)
    await m.Circle.updateOne(
      { _id: id },
      { $push: { members: { id: opts.ownerId } }, $set: { memberCount: 1 } },
    );
  if (ownerIn.length)
    await m.Membership.updateOne(
      { _id: opts.ownerId },
      { $addToSet: { circles: { $each: ownerIn } } },
      { upsert: true },
    );
  const batch = 5000;
  const start = Date.now() - opts.posts * 1000;
  const audiences = ['@public', `@${domain}`, circleId];
  for (let done = 0; done < opts.posts; done += batch) {
    const posts: Array<Record<string, unknown>> = [];
    // Per list, in time order (as the server appends them: bucket ranges stay tight); the tier
    // tags are counted separately, since an append counts all its entries under the same tags.
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
        source: { content: `post ${i}` },
        body: `<p>post ${i}</p>`,
        publishedAt,
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
    await m.Post.insertMany(posts, { ordered: false });
    for (const [key, { entries, tags }] of byList) {
      await lists.append(key, entries, ['type.Note']);
      await lists.retag(key, tags);
    }
  }
  await conn.close();
  // The bench's FerretDB runs on PostgreSQL: the GIN `_id` indexes its pushdown can use (ADR 0004).
  const pg = process.env.TEST_POSTGRES_URL;
  if (pg) await ensurePostgresIdIndexes(pg, new URL(mongoUrl).pathname.slice(1));
  return { circleId, ownerId: opts.ownerId };
}

/**
 * `n` replies straight into the collection (no thread lists: the server builds them at its next
 * start): 50 in the root's thread, the others 200 to a thread elsewhere.
 */
export async function seedReplies(
  mongoUrl: string,
  domain: string,
  rootId: string,
  actorId: string,
  n: number,
): Promise<void> {
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  const replies = conn.db!.collection('replies');
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
    await replies.insertMany(docs as never[]);
  }
  // The first start recorded its (empty) thread-list migration: the seeded replies need it again.
  await conn.db!.collection('migrations').deleteOne({ _id: 'thread-lists-v1' as never });
  await conn.close();
}
