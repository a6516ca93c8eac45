/**
 * FlagsStore and InvitesStore on both engines (issue 22), index coverage checked: the flag queue
 * and its filters, one winner of concurrent closes; invites by code, the admin list, and
 * redemption exact under concurrency (N redeemers of an invite with k slots: exactly k succeed),
 * a released slot given back once.
 */
import { FLAGS, FlagsStore, INVITES, InvitesStore } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const page = { skip: 0, limit: 50 };

describe.each(engineFixtures())('moderation stores on $name', (fx) => {
  let engine: Engine;
  let flags: FlagsStore;
  let invites: InvitesStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([FLAGS, INVITES]);
    flags = new FlagsStore(engine);
    invites = new InvitesStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const flag = (n: number, actorId: string, targetType: string, code = 'spam') =>
    flags.create({
      id: `flag:${n}@m.test`,
      target: `post:${n}@m.test`,
      targetType,
      targetActorId: null,
      reason: { code, label: code.toUpperCase() },
      actorId,
      server: '@m.test',
    });

  describe('flags', () => {
    beforeAll(async () => {
      // One at a time: creation order is the list's order.
      for (let n = 1; n <= 4; n++) {
        await flag(n, n % 2 ? '@ann@m.test' : '@bob@m.test', n <= 2 ? 'Post' : 'Group');
        await new Promise((r) => setTimeout(r, 2));
      }
    });

    it('stores an open flag with its reason and times; the twin check finds it by reason', async () => {
      const f = await flags.byId('flag:1@m.test');
      expect(f).toMatchObject({ status: 'open', reason: { code: 'spam', label: 'SPAM' } });
      expect(f?.reason).not.toHaveProperty('details');
      expect(f?.createdAt).toBeInstanceOf(Date);
      expect((await flags.openTwin('@ann@m.test', 'post:1@m.test', 'spam'))?.id).toBe('flag:1@m.test');
      expect(await flags.openTwin('@ann@m.test', 'post:1@m.test', 'harassment')).toBeNull();
      expect(await flags.openTwin('@bob@m.test', 'post:1@m.test', 'spam')).toBeNull();
    });

    it('lists newest first by status, type and reporter, with totals', async () => {
      const all = await flags.pageForAdmin({}, page);
      expect(all.items.map((f) => f.id)).toEqual([4, 3, 2, 1].map((n) => `flag:${n}@m.test`));
      expect(all.total).toBe(4);
      const ann = await flags.pageForAdmin({ status: 'open', actorId: '@ann@m.test' }, page);
      expect(ann.items.map((f) => f.id)).toEqual(['flag:3@m.test', 'flag:1@m.test']);
      const groupsByBob = await flags.pageForAdmin(
        { status: 'open', targetType: 'Group', actorId: '@bob@m.test' },
        page,
      );
      expect(groupsByBob.items.map((f) => f.id)).toEqual(['flag:4@m.test']);
      const second = await flags.pageForAdmin({ targetType: 'Post' }, { skip: 1, limit: 1 });
      expect(second).toMatchObject({ total: 2, items: [{ id: 'flag:1@m.test' }] });
    });

    it('closes an open flag for exactly one of ten concurrent admins', async () => {
      const closes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          flags.close('flag:2@m.test', {
            status: i % 2 ? 'resolved' : 'dismissed',
            resolvedBy: `@a${i}@m.test`,
          }),
        ),
      );
      expect(closes.filter(Boolean)).toHaveLength(1);
      const closed = await flags.byId('flag:2@m.test');
      expect(closed?.resolvedAt).toBeInstanceOf(Date);
      expect(await flags.countOpen()).toBe(3);
      expect((await flags.pageForAdmin({ status: closed!.status }, page)).items.map((f) => f.id)).toEqual([
        'flag:2@m.test',
      ]);
      expect(await flags.close('flag:2@m.test', { status: 'resolved', resolvedBy: '@x@m.test' })).toBe(false);
    });
  });

  describe('invites', () => {
    const invite = (n: number, type: 'individual' | 'open', maxRedemptions: number | null) =>
      invites.create({
        id: `invite:${n}@m.test`,
        actorId: '@admin@m.test',
        type,
        code: `code${n}`,
        maxRedemptions,
        ...(type === 'individual' ? { email: `  Guest${n}@Example.ORG ` } : {}),
      });

    it('creates with defaults, finds by code, refuses a second invite with the same code', async () => {
      const created = await invite(1, 'individual', 1);
      expect(created).toMatchObject({ email: 'guest1@example.org', redemptionCount: 0, active: true });
      expect((await invites.byCode('code1'))?.id).toBe('invite:1@m.test');
      expect(await invites.byCode('nope')).toBeNull();
      await expect(
        invites.create({ id: 'invite:dup@m.test', actorId: '@admin@m.test', type: 'open', code: 'code1' }),
      ).rejects.toThrow(/duplicate/);
    });

    it('gives an invite with 3 slots to exactly 3 of 20 concurrent redeemers', async () => {
      await invite(2, 'open', 3);
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          invites.claim({ id: 'invite:2@m.test' }, 3, { userId: `@u${i}@m.test`, email: null }),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(3);
      const after = await invites.byId('invite:2@m.test');
      expect(after?.redemptionCount).toBe(3);
      expect(after?.redemptions).toHaveLength(3);
      expect(after?.redemptions[0]?.redeemedAt).toBeInstanceOf(Date);
    });

    it('an unlimited open invite takes every redeemer; a deactivated one takes none', async () => {
      await invite(3, 'open', null);
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          invites.claim({ id: 'invite:3@m.test' }, null, { userId: `@v${i}@m.test`, email: null }),
        ),
      );
      expect(claims.every(Boolean)).toBe(true);
      expect((await invites.byId('invite:3@m.test'))?.redemptionCount).toBe(10);
      expect((await invites.deactivate('invite:3@m.test'))?.active).toBe(false);
      expect(await invites.claim({ id: 'invite:3@m.test' }, null, { userId: '@w@m.test', email: null })).toBe(
        false,
      );
    });

    it('a released slot is given back once, even with redemptions racing it', async () => {
      await invite(4, 'open', 2);
      expect(await invites.claim({ id: 'invite:4@m.test' }, 2, { userId: '@a@m.test', email: null })).toBe(
        true,
      );
      expect(await invites.claim({ id: 'invite:4@m.test' }, 2, { userId: '@b@m.test', email: null })).toBe(
        true,
      );
      await Promise.all([
        invites.release('invite:4@m.test', '@a@m.test'),
        invites.release('invite:4@m.test', '@a@m.test'),
        invites.claim({ id: 'invite:4@m.test' }, 2, { userId: '@c@m.test', email: null }),
      ]);
      const after = await invites.byId('invite:4@m.test');
      expect(after?.redemptions.map((r) => r.userId).sort()).toEqual(
        after?.redemptionCount === 2 ? ['@b@m.test', '@c@m.test'] : ['@b@m.test'],
      );
      expect(after?.redemptionCount).toBe(after?.redemptions.length);
    });

    it('lists by type and active flag, newest first; counts the active ones', async () => {
      const all = await invites.pageForAdmin({}, page);
      expect(all.items.map((i) => i.id)).toEqual([4, 3, 2, 1].map((n) => `invite:${n}@m.test`));
      expect(
        (await invites.pageForAdmin({ type: 'open', active: true }, page)).items.map((i) => i.id),
      ).toEqual(['invite:4@m.test', 'invite:2@m.test']);
      expect((await invites.pageForAdmin({ active: false }, page)).total).toBe(1);
      expect(await invites.countActive()).toBe(3);
    });
  });
});
