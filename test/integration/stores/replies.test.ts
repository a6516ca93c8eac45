/**
 * RepliesStore on both engines (issue 22): a thread page is oldest first with the live total; a
 * reply deleted by ten concurrent callers is deleted for exactly one and leaves the thread once;
 * a restored one comes back; the double-submit guard finds the actor's same reply; an author's
 * replies are tombstoned in place; the defaults of a new reply are stored.
 */
import { ListStore, RepliesStore, STORE_SPECS } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const D = 'replies.test';
const ROOT = `post:root@${D}`;
const ANN = `@ann@${D}`;
const reply = (n: number, actorId = ANN, content = `reply ${n}`) => ({
  id: `reply:r${n}@${D}`,
  actorId,
  target: ROOT,
  parent: ROOT,
  source: { content },
  body: `<p>${content}</p>`,
});

describe.each(engineFixtures())('RepliesStore on $name', (fx) => {
  let engine: Engine;
  let replies: RepliesStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure(STORE_SPECS);
    replies = new RepliesStore(engine, new ListStore(engine));
    for (let i = 1; i <= 5; i++) {
      await replies.create(reply(i, i === 4 ? `@bob@${D}` : ANN));
      await new Promise((r) => setTimeout(r, 2));
    }
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const page = async (skip: number, limit: number) => {
    const p = await replies.pageForThread(ROOT, { skip, limit });
    return { total: p.total, ids: p.items.map((r) => Number(/r(\d+)@/.exec(r.id)![1])) };
  };

  it('stores a new reply with its defaults and pages the thread oldest first', async () => {
    expect(await replies.byId(reply(1).id)).toMatchObject({
      objectType: 'Reply',
      type: 'Reply',
      replyCount: 0,
      reactCount: 0,
      reactSummary: {},
      deletedAt: null,
      source: { content: 'reply 1', mediaType: 'text/markdown' },
    });
    expect(await page(0, 3)).toEqual({ total: 5, ids: [1, 2, 3] });
    expect(await page(3, 3)).toEqual({ total: 5, ids: [4, 5] });
  });

  it("leaves a skipped author's replies out of the page, and out of the total by their count when given", async () => {
    const bob = new Set([`@bob@${D}`]);
    const skipping = async (skip: number, limit: number, count?: number) => {
      const p = await replies.pageForThread(ROOT, { skip, limit }, bob, count);
      return { total: p.total, ids: p.items.map((r) => Number(/r(\d+)@/.exec(r.id)![1])) };
    };
    // Counted on the list (the whole of it read) or told (the list's counter less bob's one).
    expect(await skipping(0, 2)).toEqual({ total: 4, ids: [1, 2] });
    expect(await skipping(2, 2)).toEqual({ total: 4, ids: [3, 5] });
    expect(await skipping(0, 2, 1)).toEqual({ total: 4, ids: [1, 2] });
    expect(await skipping(2, 2, 1)).toEqual({ total: 4, ids: [3, 5] });
  });

  it('deletes for exactly one of ten concurrent callers, once out of the thread; a restore brings it back', async () => {
    const id = reply(2).id;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => replies.softDelete(id, { deletedAt: new Date(), type: 'Tombstone' })),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await page(0, 10)).toEqual({ total: 4, ids: [1, 3, 4, 5] });
    expect(await replies.restore(id, { type: 'Reply' })).toMatchObject({ id, deletedAt: null });
    expect(await page(0, 10)).toEqual({ total: 5, ids: [1, 2, 3, 4, 5] });
  });

  it("finds the actor's same reply to the same parent since a time (double submit)", async () => {
    const since = new Date(Date.now() - 60_000);
    expect((await replies.recentTwin(ANN, ROOT, ROOT, 'reply 3', since))?.id).toBe(reply(3).id);
    expect(await replies.recentTwin(ANN, ROOT, ROOT, 'reply 4', since)).toBeNull(); // bob's
    expect(await replies.recentTwin(ANN, ROOT, ROOT, 'reply 3', new Date(Date.now() + 1000))).toBeNull();
  });

  it("tombstones an author's live replies in place, counted live no more; the GC purges old tombstones", async () => {
    const live = await replies.countLive();
    expect(await replies.tombstoneByAuthor(`@bob@${D}`, new Date(1e12), ANN)).toBe(1);
    expect(await replies.byId(reply(4).id)).toMatchObject({ type: 'Tombstone', deletedAt: new Date(1e12) });
    expect(await replies.countLive()).toBe(live - 1);
    expect(await replies.purgeDeletedBefore(new Date(1e12 + 1))).toEqual([reply(4).id]);
    expect(await replies.byId(reply(4).id)).toBeNull();
  });

  it('a hard delete of a live reply takes it out of the thread', async () => {
    expect(await replies.hardDelete(reply(5).id)).toBe(true);
    expect((await page(0, 10)).ids).not.toContain(5);
  });
});
