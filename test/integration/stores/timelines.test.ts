/**
 * TimelineStore with its lists on both engines (issue 22): the circle timelines are ListStore
 * lists on the engine under test, the posts and circles still on their models (FerretDB) until
 * their stores move. A new post's circle fan-out is written before `createLocal` resolves (no
 * deferred fan-out: another process reads it at once); a page reads newest first from a keyset
 * place and keeps only members' posts; a backfill run twice lists and counts each post once; a
 * dropped circle's timeline goes.
 */
import { createStores, ListStore, LISTS, STORE_SPECS, type Stores } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';
import { useTestDatabase } from '../../harness/database';

const D = 'timelines.test';
const ann = `@ann@${D}`;
const bob = `@bob@${D}`;
let n = 0;
const post = (actorId: string, at: number, to = '@public') => ({
  id: `post:tl${++n}@${D}`,
  actorId,
  to,
  canReply: to,
  canReact: to,
  type: 'Note',
  source: { content: `post ${n}`, mediaType: 'text/markdown' },
  body: `<p>post ${n}</p>`,
  publishedAt: new Date(Date.UTC(2026, 0, 1) + at * 1000),
});

async function ids(lists: ListStore, key: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of lists.newest([key])) out.push(e.id);
  return out;
}

describe.each(engineFixtures())('TimelineStore on $name', (fx) => {
  const t = useTestDatabase(`it_timelines_${fx.name}`, D);
  let engine: Engine;
  let repos: Stores;
  /** Another process's view of the same lists. */
  let other: ListStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure(STORE_SPECS);
    repos = createStores({ ...t.db, engine }, D);
    other = new ListStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it("writes a new post's circle fan-out before createLocal resolves, counted by tier", async () => {
    const circles = [`circle:a@${D}`, `circle:b@${D}`];
    const p = post(ann, 1);
    const created = await repos.posts.createLocal(p, { circles });
    expect(created.circles).toEqual(circles);
    for (const c of circles) {
      expect(await ids(other, LISTS.circle(c))).toEqual([p.id]);
      expect(await other.head(LISTS.circle(c))).toEqual({
        count: 1,
        tags: { 'to.public': 1, 'type.Note': 1 },
      });
    }
    expect(await ids(other, LISTS.author(ann))).toEqual([p.id]);
    expect(await ids(other, LISTS.public)).toContain(p.id);
  });

  it('twenty posts created at once into one circle all reach its timeline, each counted once', async () => {
    const c = `circle:busy@${D}`;
    const posts = Array.from({ length: 20 }, (_, i) => post(i % 2 ? ann : bob, 100 + i));
    await Promise.all(posts.map((p) => repos.posts.createLocal(p, { circles: [c] })));
    expect(await ids(other, LISTS.circle(c))).toEqual(posts.map((p) => p.id).reverse());
    expect((await other.head(LISTS.circle(c))).count).toBe(20);
  });

  it('pages a timeline newest first from the place `next` names, keeping members only', async () => {
    const c = `circle:busy@${D}`;
    const keep = () => true;
    const first = await repos.timelines.page(c, new Set([ann]), keep, { limit: 4, local: true });
    expect(first.total).toBe(20);
    expect(first.more).toBe(true);
    expect(first.items.map((p) => p.actorId)).toEqual([ann, ann, ann, ann]);
    const second = await repos.timelines.page(c, new Set([ann]), keep, {
      limit: 10,
      local: true,
      before: first.next!,
    });
    expect(second.more).toBe(false);
    expect(second.items).toHaveLength(6);
    const all = [...first.items, ...second.items].map((p) => p.id);
    expect(new Set(all).size).toBe(10);
    const times = [...first.items, ...second.items].map((p) => new Date(p.publishedAt).getTime());
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });

  it("a new member's backfill, run twice, lists and counts their posts once", async () => {
    const c = `circle:joined@${D}`;
    for (let run = 0; run < 2; run++) await repos.timelines.backfill(c, bob);
    const bobs = (await repos.posts.newestByAuthor(bob, 100)).map((p) => p.id);
    expect(bobs).toHaveLength(10);
    expect(await ids(other, LISTS.circle(c))).toEqual(bobs);
    expect((await other.head(LISTS.circle(c))).count).toBe(10);
    expect((await repos.posts.byId(bobs[0]!))?.circles).toContain(c);
  });

  it("a dropped circle's timeline goes; a deleted post leaves its circles' timelines", async () => {
    await repos.timelines.dropCircle(`circle:joined@${D}`, [bob]);
    expect(await ids(other, LISTS.circle(`circle:joined@${D}`))).toEqual([]);
    expect(await other.head(LISTS.circle(`circle:joined@${D}`))).toEqual({ count: 0, tags: {} });
    const [newest] = await ids(other, LISTS.circle(`circle:busy@${D}`));
    await repos.posts.softDeletePost(newest!, ann);
    expect(await ids(other, LISTS.circle(`circle:busy@${D}`))).not.toContain(newest);
    expect((await other.head(LISTS.circle(`circle:busy@${D}`))).count).toBe(19);
  });
});
