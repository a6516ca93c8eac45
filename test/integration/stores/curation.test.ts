/**
 * SectionsStore and RecommendationsStore on both engines (issue 22), index coverage checked: the
 * admin CRUD shapes of spec 4.5 (soft delete and restore with one winner each, `deleted` modes
 * live / deleted / include with their totals), Discover's shelves in order, a section's full
 * delete taking its entries.
 */
import { RECOMMENDATIONS, RecommendationsStore, SECTIONS, SectionsStore } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const page = { skip: 0, limit: 50 };
const ids = (rows: { items: Array<{ id: string }> }) => rows.items.map((r) => r.id);

describe.each(engineFixtures())('curation stores on $name', (fx) => {
  let engine: Engine;
  let sections: SectionsStore;
  let recs: RecommendationsStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([SECTIONS, RECOMMENDATIONS]);
    sections = new SectionsStore(engine);
    recs = new RecommendationsStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const section = (n: number, order: number, active = true) =>
    sections.create({
      id: `section:${n}@c.test`,
      name: `S${n}`,
      to: '@public',
      actorId: '@c.test',
      order,
      active,
    });
  const rec = (n: number, sectionN: number, order: number, refType: 'Post' | 'Group' = 'Post') =>
    recs.create({
      id: `recommendation:${n}@c.test`,
      section: `section:${sectionN}@c.test`,
      ref: `${refType.toLowerCase()}:${n}@c.test`,
      refType,
      visibility: 'public',
      actorId: '@c.test',
      order,
    });
  const tick = () => new Promise((r) => setTimeout(r, 2));

  describe('sections', () => {
    beforeAll(async () => {
      await section(1, 2);
      await tick();
      await section(2, 1);
      await tick();
      await section(3, 1, false);
      await tick();
      await section(4, 0);
    });

    it('creates with the schema defaults', async () => {
      expect(await sections.byId('section:1@c.test')).toMatchObject({
        objectType: 'Section',
        summary: '',
        active: true,
        deletedAt: null,
      });
    });

    it('Discover reads the live, active sections in shelf order (order, then creation)', async () => {
      expect((await sections.active()).map((s) => s.id)).toEqual([
        'section:4@c.test',
        'section:2@c.test',
        'section:1@c.test',
      ]);
    });

    it('soft delete and restore each have one winner of ten; deleted=… modes list and count', async () => {
      const deletes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          sections.softDelete('section:2@c.test', { deletedAt: new Date(), deletedBy: `@a${i}@c.test` }),
        ),
      );
      expect(deletes.filter(Boolean)).toHaveLength(1);
      expect(deletes.find(Boolean)?.deletedAt).toBeNull();
      expect(await sections.liveById('section:2@c.test')).toBeNull();
      expect(ids(await sections.pageForAdmin('live', page))).toEqual([
        'section:4@c.test',
        'section:3@c.test',
        'section:1@c.test',
      ]);
      const deleted = await sections.pageForAdmin('deleted', page);
      expect(deleted).toMatchObject({ total: 1, items: [{ id: 'section:2@c.test' }] });
      expect(deleted.items[0]?.deletedBy).toMatch(/^@a\d@c\.test$/);
      const all = await sections.pageForAdmin('include', { skip: 1, limit: 2 });
      expect(all.total).toBe(4);
      expect(ids(all)).toEqual(['section:2@c.test', 'section:3@c.test']);

      const restores = await Promise.all(
        Array.from({ length: 10 }, () => sections.restore('section:2@c.test')),
      );
      expect(restores.filter(Boolean)).toHaveLength(1);
      const back = await sections.byId('section:2@c.test');
      expect(back?.deletedAt).toBeNull();
      expect(back).not.toHaveProperty('deletedBy');
      expect(await sections.softDelete('nope', { deletedAt: new Date() })).toBeNull();
    });

    it('sets fields and returns the row after; a hard delete removes it', async () => {
      const after = await sections.set('section:3@c.test', { name: 'Renamed', active: true });
      expect(after).toMatchObject({ name: 'Renamed', active: true });
      expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(after!.createdAt.getTime());
      expect(await sections.set('section:none@c.test', { name: 'x' })).toBeNull();
      expect(await sections.hardDelete('section:3@c.test')).toBe(true);
      expect(await sections.hardDelete('section:3@c.test')).toBe(false);
    });
  });

  describe('recommendations', () => {
    beforeAll(async () => {
      await rec(1, 1, 1);
      await tick();
      await rec(2, 1, 0, 'Group');
      await tick();
      await rec(3, 2, 0);
      await tick();
      await rec(4, 1, 2);
    });

    it("a shelf is the section's live, active entries in order", async () => {
      await recs.set('recommendation:4@c.test', { active: false });
      expect((await recs.shelf('section:1@c.test')).map((r) => r.id)).toEqual([
        'recommendation:2@c.test',
        'recommendation:1@c.test',
      ]);
      await recs.softDelete('recommendation:2@c.test', { deletedAt: new Date(), deletedBy: '@a@c.test' });
      expect((await recs.shelf('section:1@c.test')).map((r) => r.id)).toEqual(['recommendation:1@c.test']);
    });

    it('the admin list: newest first, by section and type, in every deleted mode', async () => {
      expect(ids(await recs.pageForAdmin({ deleted: 'live' }, page))).toEqual([
        'recommendation:4@c.test',
        'recommendation:3@c.test',
        'recommendation:1@c.test',
      ]);
      expect(await recs.pageForAdmin({ deleted: 'deleted' }, page)).toMatchObject({ total: 1 });
      expect(ids(await recs.pageForAdmin({ deleted: 'include', refType: 'Post' }, page))).toEqual([
        'recommendation:4@c.test',
        'recommendation:3@c.test',
        'recommendation:1@c.test',
      ]);
      expect(ids(await recs.pageForAdmin({ deleted: 'deleted', refType: 'Group' }, page))).toEqual([
        'recommendation:2@c.test',
      ]);
      const bySection = await recs.pageForAdmin(
        { deleted: 'include', section: 'section:1@c.test' },
        {
          skip: 1,
          limit: 2,
        },
      );
      expect(bySection.total).toBe(3);
      expect(ids(bySection)).toEqual(['recommendation:2@c.test', 'recommendation:1@c.test']);
      expect(
        ids(await recs.pageForAdmin({ deleted: 'live', section: 'section:1@c.test', refType: 'Post' }, page)),
      ).toEqual(['recommendation:4@c.test', 'recommendation:1@c.test']);
    });

    it("a section's full delete removes its entries and nobody else's", async () => {
      expect(await recs.removeForSection('section:1@c.test')).toBe(3);
      expect(ids(await recs.pageForAdmin({ deleted: 'include' }, page))).toEqual(['recommendation:3@c.test']);
    });
  });
});
