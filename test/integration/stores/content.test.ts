/**
 * PagesStore, BookmarksStore and GroupsStore on both engines (issue 22): page slugs (the first
 * free one, deleted pages keeping theirs), folder trees (children of many folders in one read),
 * public and visible lists with their totals (an audience or a tag tested on the indexed range),
 * group RSVP policy lists for the admin, and a member counter that loses none of 20 concurrent
 * moves and never stays below zero.
 */
import { BookmarksStore, GroupsStore, PagesStore, STORE_SPECS } from '@agora/common/db';
import { ANONYMOUS, type Viewer } from '@agora/common/audience';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const D = 'content.test';
const ANN = `@ann@${D}`;
const BOB = `@bob@${D}`;
const viewer = (id: string, circleIds: string[] = []): Viewer => ({
  id,
  local: true,
  isAdmin: false,
  circleIds,
  groupIds: [],
});
let n = 0;
const hex = () => (++n).toString(16).padStart(24, '0');

describe.each(engineFixtures())('content stores on $name', (fx) => {
  let engine: Engine;
  let pages: PagesStore;
  let bookmarks: BookmarksStore;
  let groups: GroupsStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure(STORE_SPECS);
    pages = new PagesStore(engine);
    bookmarks = new BookmarksStore(engine, D);
    groups = new GroupsStore(engine, D);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const page = (slug: string, extra: Record<string, unknown> = {}) =>
    pages.create({ id: `page:${hex()}@${D}`, actorId: ANN, title: slug, slug, to: '@public', ...extra });

  it('finds the first free slug; a deleted page keeps its slug; a slug is read live or not', async () => {
    expect(await pages.freeSlug('faq')).toBe('faq');
    const faq = await page('faq');
    await page('faq-2');
    await page('faq-x'); // not a numbered slug of `faq`
    await page('faqs');
    expect((await pages.slugsLike('faq')).sort()).toEqual(['faq', 'faq-2']);
    expect(await pages.freeSlug('faq')).toBe('faq-3');
    expect(await pages.freeSlug('faq', faq.id)).toBe('faq');
    await pages.softDelete(faq.id, { deletedAt: new Date() });
    expect(await pages.localBySlug('faq')).toBeNull();
    expect((await pages.anyLocalBySlug('faq'))?.id).toBe(faq.id);
    expect(await pages.freeSlug('faq')).toBe('faq-3');
  });

  it('creates and renames racing for one slug each end under a slug of their own', async () => {
    const made = await Promise.all(
      Array.from({ length: 6 }, () =>
        pages.createUnderFreeSlug('race', (slug) => ({
          id: `page:${hex()}@${D}`,
          actorId: ANN,
          title: 'Race',
          to: '@public',
          url: `https://x/${slug}`,
        })),
      ),
    );
    const slugs = made.map((p) => p.slug).sort();
    expect(new Set(slugs).size).toBe(6);
    expect(slugs).toEqual(['race', 'race-2', 'race-3', 'race-4', 'race-5', 'race-6']);
    // Each stored what its builder made for the slug it got.
    for (const p of made) expect(p.url).toBe(`https://x/${p.slug}`);
    const [one, two] = await Promise.all([page('ren-a'), page('ren-b')]);
    const renamed = await Promise.all(
      [one, two].map((p) =>
        pages.setUnderFreeSlug(p.id, 'renamed', (slug) => ({ url: `https://x/${slug}` })),
      ),
    );
    expect(renamed.map((p) => p?.slug).sort()).toEqual(['renamed', 'renamed-2']);
    // A page keeps its own slug when renamed to it.
    expect((await pages.setUnderFreeSlug(one.id, String(renamed[0]!.slug), () => ({})))?.slug).toBe(
      renamed[0]!.slug,
    );
    // The index refuses a second page under a slug outright.
    await expect(page('race')).rejects.toThrow(/duplicate/i);
  });

  it('lists public pages in menu order with a tag, and counts a folder’s children', async () => {
    const folder = await page('docs', { type: 'Folder', order: -1 });
    await page('a', { parentId: folder.id, order: 2, tags: ['x'] });
    await page('b', { parentId: folder.id, order: 1, tags: ['x', 'y'] });
    await page('c', { to: `@${D}`, parentId: folder.id });
    expect(await pages.countChildren(folder.id)).toBe(3);
    const tagged = await pages.pagePublic({ tag: 'x' }, { skip: 0, limit: 10 }, { slug: 1, _id: 0 });
    expect(tagged).toEqual({ total: 2, items: [{ slug: 'b' }, { slug: 'a' }] });
    const all = await pages.pagePublic({}, { skip: 0, limit: 2 });
    expect(all.items[0]?.slug).toBe('docs');
    expect(all.total).toBe(14); // faq-2, faq-x, faqs, race ×6, renamed ×2, docs, a, b (faq deleted, c not public)
    const children = await pages.childrenIn('parentId', [folder.id], ANN);
    expect(children.map((p) => p.slug).sort()).toEqual(['a', 'b', 'c']);
    const admin = await pages.pageForAdmin({ deleted: 'deleted' }, { skip: 0, limit: 10 });
    expect(admin.items.map((p) => p.slug)).toEqual(['faq']);
  });

  it('walks folder trees of bookmarks and lists what each viewer may read', async () => {
    const bm = (actorId: string, extra: Record<string, unknown>) =>
      bookmarks.create({ id: `bookmark:${hex()}@${D}`, actorId, to: '@public', ...extra });
    const top = await bm(ANN, { type: 'Folder', title: 'top' });
    const sub = await bm(ANN, { type: 'Folder', title: 'sub', parentFolder: top.id });
    await bm(ANN, { href: 'https://a.example/', parentFolder: sub.id });
    await bm(ANN, { href: 'https://b.example/', to: `circle:c@${D}` });
    await bm(BOB, { href: 'https://c.example/', to: BOB });
    expect((await bookmarks.childrenOf(ANN, top.id)).map((b) => b.id)).toEqual([sub.id]);
    expect((await bookmarks.childrenIn('parentFolder', [top.id, sub.id])).length).toBe(2);
    const roots = async (v: Viewer) =>
      (await bookmarks.pageRootsVisibleTo(v, undefined, { skip: 0, limit: 10 })).total;
    expect(await roots(ANONYMOUS)).toBe(1);
    expect(await roots(viewer(`@cat@${D}`, [`circle:c@${D}`]))).toBe(2);
    expect(await roots(viewer(BOB))).toBe(2); // the public folder and bob's own
    const ownerAll = await bookmarks.pageForOwner(
      ANN,
      undefined,
      { type: undefined, viewer: viewer(ANN) },
      { skip: 0, limit: 10 },
    );
    expect(ownerAll.total).toBe(4);
    const othersRoot = await bookmarks.pageForOwner(
      ANN,
      null,
      { type: 'Bookmark', viewer: ANONYMOUS },
      { skip: 0, limit: 10 },
    );
    expect(othersRoot.total).toBe(0);
    await bookmarks.tombstoneMany([sub.id], { deletedAt: new Date(), type: 'Tombstone' });
    expect(await bookmarks.childrenOf(ANN, top.id)).toEqual([]);
    expect(await bookmarks.tombstoneByAuthor(ANN, new Date(), ANN)).toBe(3);
  });

  it('lists groups for the admin by RSVP policy and for viewers by audience', async () => {
    const g = (name: string, extra: Record<string, unknown> = {}) =>
      groups.create({
        id: `group:${hex()}@${D}`,
        name,
        actorId: ANN,
        to: '@public',
        canReply: '@public',
        canReact: '@public',
        ...extra,
      });
    await g('open');
    await g('approval', { rsvpPolicy: 'approvalOnly' });
    await g('private', { to: `@${D}`, rsvpPolicy: 'approvalOnly' });
    const gone = await g('gone', { rsvpPolicy: 'approvalOnly' });
    await groups.softDelete(gone.id, { deletedAt: new Date() });
    const approval = await groups.pageForAdmin(
      { deleted: 'live', rsvpPolicy: 'approvalOnly' },
      { skip: 0, limit: 10 },
    );
    expect(approval.items.map((x) => x.name)).toEqual(['private', 'approval']);
    expect((await groups.pageForAdmin({ deleted: 'include' }, { skip: 0, limit: 10 })).total).toBe(4);
    const seen = await groups.pageLocalVisibleTo(ANONYMOUS, { skip: 0, limit: 10 }, { name: 1, _id: 0 });
    expect(seen).toEqual({ total: 2, items: [{ name: 'approval' }, { name: 'open' }] });
    expect((await groups.pageLocalVisibleTo(viewer(BOB), { skip: 0, limit: 10 })).total).toBe(3);
    expect(await groups.countLive()).toBe(3);
  });

  it('pages what a viewer may read in order: shared audiences and own groups addressed elsewhere', async () => {
    const CAT = `@cat@${D}`;
    const circle = `circle:${hex()}@${D}`;
    const made: Array<{ id: string; to: string; actorId: string }> = [];
    // Interleaved in time: public, cat's own private, to cat's circle, someone else's private.
    const plan = ['@public', 'own', circle, 'other', '@public', 'own', `@${D}`, 'own', circle, '@public'];
    for (const [i, to] of plan.entries()) {
      const actorId = to === 'own' ? CAT : BOB;
      const g = await groups.create({
        id: `group:${hex()}@${D}`,
        name: `g${i}`,
        actorId,
        to: to === 'own' || to === 'other' ? `group:${hex()}@${D}` : to,
        canReply: '',
        canReact: '',
        createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
      });
      made.push({ id: g.id, to: String(g.to), actorId });
    }
    const cat = viewer(CAT, [circle]);
    const everything = await groups.pageLocalVisibleTo(cat, { skip: 0, limit: 100 });
    const mine = everything.items.filter((g) => made.some((m) => m.id === g.id)).map((g) => g.name);
    // Newest first; 'other' (a group of someone else, to a group cat is not in) never.
    expect(mine).toEqual(['g9', 'g8', 'g7', 'g6', 'g5', 'g4', 'g2', 'g1', 'g0']);
    // Pages of 2 walk the same order with the same total.
    const walked: string[] = [];
    for (let skip = 0; skip < everything.total; skip += 2) {
      const page = await groups.pageLocalVisibleTo(cat, { skip, limit: 2 });
      expect(page.total).toBe(everything.total);
      walked.push(...page.items.map((g) => g.id));
    }
    expect(walked).toEqual(everything.items.map((g) => g.id));
  });

  it('moves a member counter by 20 concurrent joins and leaves, never below zero', async () => {
    const grp = await groups.create({
      id: `group:${hex()}@${D}`,
      name: 'c',
      actorId: ANN,
      to: '@public',
      canReply: '',
      canReact: '',
    });
    await Promise.all(Array.from({ length: 20 }, () => groups.bumpMembers(grp.id, 1)));
    expect((await groups.byId(grp.id))?.memberCount).toBe(20);
    await Promise.all(Array.from({ length: 25 }, () => groups.bumpMembers(grp.id, -1)));
    expect((await groups.byId(grp.id))?.memberCount).toBe(0);
  });
});
