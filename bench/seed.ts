/** Seeds users, posts, circles and timeline rows straight into the database (fast, realistic shapes). */
import mongoose from 'mongoose';
import { mintId, registerModels, syncIndexes } from '@agora/common';

export interface SeedResult {
  circleId: string;
  ownerId: string;
}

export async function seed(
  mongoUrl: string,
  domain: string,
  opts: { posts: number; members: number; circles: number; ownerId: string },
): Promise<SeedResult> {
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  const m = registerModels(conn);
  await syncIndexes(m);
  const members = Array.from({ length: opts.members }, (_, i) => `@member${i}@${domain}`);
  const circleId = mintId('circle', domain);
  await m.Circle.create({
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
      id,
      name: `c${i}`,
      actorId: members[i % members.length]!,
      to: '@public',
      members: [],
    })),
  );
  const batch = 5000;
  const start = Date.now() - opts.posts * 1000;
  const audiences = ['@public', `@${domain}`, circleId];
  for (let done = 0; done < opts.posts; done += batch) {
    const posts = [];
    const rows = [];
    for (let i = done; i < Math.min(opts.posts, done + batch); i++) {
      const id = mintId('post', domain);
      const actorId = members[i % members.length]!;
      const to = audiences[i % audiences.length]!;
      const publishedAt = new Date(start + i * 1000);
      posts.push({
        id,
        actorId,
        to,
        canReply: to,
        canReact: to,
        type: 'Note',
        source: { content: `post ${i}` },
        body: `<p>post ${i}</p>`,
        publishedAt,
      });
      rows.push({ circleId, postId: id, authorId: actorId, to, type: 'Note', publishedAt });
      rows.push({
        circleId: otherCircles[i % otherCircles.length],
        postId: id,
        authorId: actorId,
        to,
        type: 'Note',
        publishedAt,
      });
    }
    await m.Post.insertMany(posts, { ordered: false });
    await m.TimelineEntry.insertMany(rows, { ordered: false });
  }
  await conn.close();
  return { circleId, ownerId: opts.ownerId };
}
