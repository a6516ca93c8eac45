/**
 * PostsStore on both engines (issue 22): a new post's defaults and dates (a client's ISO string
 * stored as a date); a pull by intention (authors, audiences, since) pages newest first by
 * (publishedAt, id) without skipping or repeating posts of one millisecond, and answers the
 * scope's deletions since a time; exactly one of concurrent deletes takes the post out of its
 * lists; concurrent fan-outs record every circle; the admin list filters with a true total.
 */
import { createStores, STORE_SPECS, type Stores } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';
import { useTestDatabase } from '../../harness/database';

const D = 'posts.test';
const ANN = `@ann@${D}`;
const BOB = `@bob@${D}`;
let n = 0;
const post = (actorId: string, at: number | string, to = '@public') => ({
  id: `post:p${String(++n).padStart(3, '0')}@${D}`,
  actorId,
  to,
  canReply: to,
  canReact: to,
  type: 'Note',
  source: { content: `post ${n}` },
  body: `<p>post ${n}</p>`,
  publishedAt: typeof at === 'string' ? at : new Date(Date.UTC(2026, 0, 1) + at * 1000),
});

describe.each(engineFixtures())('PostsStore on $name', (fx) => {
  const t = useTestDatabase(`it_posts_${fx.name}`, D);
  let engine: Engine;
  let repos: Stores;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure(STORE_SPECS);
    repos = createStores({ ...t.db, engine }, D);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('stores a new post with its defaults; a date given as a string is stored as a date', async () => {
    const p = post(ANN, '2026-01-01T00:00:00.500Z');
    await repos.posts.createLocal(p, { circles: [] });
    const stored = await repos.posts.byId(p.id);
    expect(stored).toMatchObject({
      objectType: 'Post',
      originDomain: null,
      attachments: [],
      tags: [],
      replyCount: 0,
      reactCount: 0,
      deletedAt: null,
      source: { content: p.source.content, mediaType: 'text/markdown' },
    });
    expect(stored?.publishedAt).toEqual(new Date('2026-01-01T00:00:00.500Z'));
    expect(stored?.createdAt).toBeInstanceOf(Date);
    // The pull's range on publishedAt finds it: a date, not a string, on either engine.
    const since = await repos.posts.pullFor({
      authors: [ANN],
      audiences: ['@public'],
      since: new Date('2026-01-01T00:00:00.000Z'),
      limit: 10,
    });
    expect(since.map((x) => x.id)).toEqual([p.id]);
  });

  it('pulls newest first by (publishedAt, id): pages of one millisecond neither skip nor repeat', async () => {
    const same = Array.from({ length: 7 }, () => post(BOB, 100));
    for (const p of same) await repos.posts.createLocal(p, { circles: [] });
    await repos.posts.createLocal(post(BOB, 50, `circle:c1@${D}`), { circles: [] });
    await repos.posts.createLocal(post(BOB, 40, `@${D}`), { circles: [] });
    const seen: string[] = [];
    let before: { at: number; id: string } | undefined;
    for (;;) {
      const page = await repos.posts.pullFor({
        authors: [BOB],
        audiences: ['@public'],
        limit: 3,
        ...(before ? { before } : {}),
      });
      seen.push(...page.map((p) => p.id));
      if (page.length < 3) break;
      const last = page.at(-1)!;
      before = { at: last.publishedAt.getTime(), id: last.id };
    }
    expect(seen).toEqual(same.map((p) => p.id).reverse());
    const circle = await repos.posts.pullFor({
      authors: [BOB, ANN],
      audiences: ['@public', `circle:c1@${D}`],
      limit: 100,
    });
    expect(circle).toHaveLength(9);
    expect(circle.at(-2)?.to).toBe(`circle:c1@${D}`);
    // Every local author's public posts (no `from`), and none for remote-only authors.
    expect((await repos.posts.pullFor({ audiences: ['@public'], limit: 100 })).length).toBe(8);
    expect(await repos.posts.pullFor({ authors: [], audiences: ['@public'], limit: 10 })).toEqual([]);
    // An ISO time as `before`: strictly older than it.
    const older = await repos.posts.pullFor({
      authors: [BOB],
      audiences: ['@public', `@${D}`],
      before: { at: Date.UTC(2026, 0, 1) + 100_000, id: '' },
      limit: 10,
    });
    expect(older.map((p) => p.to)).toEqual([`@${D}`]);
  });

  it('deletes for exactly one of ten concurrent callers; the pull then answers it as deleted since', async () => {
    const p = post(ANN, 200);
    await repos.posts.createLocal(p, { circles: [] });
    const at = new Date();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => repos.posts.softDeletePost(p.id, ANN)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await repos.posts.byId(p.id)).toMatchObject({ type: 'Tombstone', formerType: 'Note' });
    const scope = { authors: [ANN], audiences: ['@public'] };
    expect(await repos.posts.deletedFor(scope, new Date(at.getTime() - 1000))).toEqual([p.id]);
    expect((await repos.posts.pullFor({ ...scope, limit: 10 })).map((x) => x.id)).not.toContain(p.id);
    const mine = await repos.posts.pageByAuthor(ANN, () => true, 'matching', { skip: 0, limit: 10 });
    expect(mine.items.map((x) => x.id)).not.toContain(p.id);
    expect((await repos.posts.restorePost(p.id))?.type).toBe('Note');
  });

  it('records every circle of concurrent fan-outs once', async () => {
    const p = post(ANN, 300);
    await repos.posts.createLocal(p, { circles: [] });
    const circles = Array.from({ length: 8 }, (_, i) => `circle:f${i}@${D}`);
    await Promise.all([...circles, ...circles].map((c) => repos.posts.addCircles(p.id, [c])));
    expect([...((await repos.posts.byId(p.id))?.circles ?? [])].sort()).toEqual([...circles].sort());
  });

  it('lists posts for the admin with filters and a true total', async () => {
    const all = await repos.posts.pageForAdmin(
      { deleted: 'include', tiersOnly: false },
      { skip: 0, limit: 100 },
    );
    const live = await repos.posts.pageForAdmin({ deleted: 'live', tiersOnly: true }, { skip: 0, limit: 2 });
    expect(live.items).toHaveLength(2);
    expect(live.total).toBe(
      all.items.filter((p) => !p.deletedAt && (p.to === '@public' || p.to === `@${D}`)).length,
    );
    const bob = await repos.posts.pageForAdmin(
      { deleted: 'live', tiersOnly: false, actorId: BOB },
      { skip: 0, limit: 100 },
    );
    expect(bob.total).toBe(9);
    expect(await repos.posts.countLive()).toBe(all.items.filter((p) => !p.deletedAt).length);
    const stamps = all.items.map((p) => p.createdAt!.getTime());
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
  });

  it("finds a user's shares of a post, live and undone, and no one else's (one index read)", async () => {
    const original = `post:orig@${D}`;
    const share = (actorId: string, shareOf = original) => ({ ...post(actorId, 400), shareOf });
    const first = share(ANN);
    const second = share(ANN);
    await repos.posts.createLocal(first, { circles: [] });
    await repos.posts.softDeletePost(first.id, ANN);
    await repos.posts.createLocal(second, { circles: [] });
    // Another user's share of it, her share of another post, her plain post: not hers of this one.
    await repos.posts.createLocal(share(`@cy@${D}`), { circles: [] });
    await repos.posts.createLocal(share(ANN, `post:other@${D}`), { circles: [] });
    await repos.posts.createLocal(post(ANN, 401), { circles: [] });
    const found = await repos.posts.sharesOf(ANN, original);
    expect(found.map((p) => [p.id, p.deletedAt === null]).sort()).toEqual(
      [
        [first.id, false],
        [second.id, true],
      ].sort(),
    );
    expect(await repos.posts.sharesOf(BOB, original)).toEqual([]);
  });

  it('refreshes the author copy on every post of an author', async () => {
    await repos.posts.refreshActorCopy(BOB, { 'actor.name': 'Bob' });
    const posts = await repos.posts.allByAuthor(BOB);
    expect(posts.length).toBe(9);
    expect(posts.every((p) => p.actor?.name === 'Bob')).toBe(true);
  });
});
