/**
 * ParkedDeliveriesStore on both engines (issue 22: every store's tests run on both adapters, with
 * index coverage checked): held deliveries keep their place in their domain's order when held
 * again, a later activity about an object knows an earlier one is held, a release makes every
 * held row of a domain due, dead rows stay apart with their reason, and the domains holding
 * anything are found by skipping through the index.
 */
import { ParkedDeliveriesStore, PARKED_DELIVERIES } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

describe.each(engineFixtures())('ParkedDeliveriesStore on $name', (fx) => {
  let engine: Engine;
  let store: ParkedDeliveriesStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([PARKED_DELIVERIES]);
    store = new ParkedDeliveriesStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const t = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);
  const hold = (key: string, domain: string, objectKey: string, plannedAt: number, attempts = 0) =>
    store.hold({
      key,
      domain,
      objectKey,
      plannedAt: t(plannedAt).toISOString(),
      job: { inbox: `https://${domain}/inbox`, activity: { id: key } },
      attempts,
      notBefore: t(1000 + plannedAt),
    });

  it('keeps a held job in its place when it is held again, with its new attempts', async () => {
    await hold('create-1', 'b.test', 'post:1', 1);
    await hold('update-1', 'b.test', 'post:1', 2);
    await hold('create-2', 'b.test', 'post:2', 3);
    await hold('create-1', 'b.test', 'post:1', 50, 3);
    const rows = await store.heldOf('b.test', 10);
    expect(rows.map((r) => [r._id, r.attempts])).toEqual([
      ['create-1', 3],
      ['update-1', 0],
      ['create-2', 0],
    ]);
    expect(JSON.parse(rows[0]!.job)).toEqual({ inbox: 'https://b.test/inbox', activity: { id: 'create-1' } });
    // Paged after a place in the order.
    const after = await store.heldOf('b.test', 10, { seq: rows[0]!.seq, id: rows[0]!._id });
    expect(after.map((r) => r._id)).toEqual(['update-1', 'create-2']);
    expect(await store.isHeld('b.test', 'post:1')).toBe(true);
    expect(await store.isHeld('b.test', 'post:3')).toBe(false);
    expect(await store.isHeld('c.test', 'post:1')).toBe(false);
  });

  it('releases every held row of a domain at once, and finds the domains holding any', async () => {
    await hold('create-9', 'c.test', 'post:9', 9);
    await hold('create-8', 'a.test', 'post:8', 8);
    expect(await store.domainsHolding()).toEqual(['a.test', 'b.test', 'c.test']);
    const now = t(5);
    expect(await store.release('b.test', now)).toBe(3);
    expect((await store.heldOf('b.test', 10)).map((r) => r.notBefore)).toEqual([now, now, now]);
    expect((await store.heldOf('c.test', 10))[0]!.notBefore).toEqual(t(1009));
    expect(await store.count('b.test', 'held')).toBe(3);
  });

  it('keeps dead deliveries apart, with their reason, until they are purged', async () => {
    await store.bury({
      key: 'update-1',
      domain: 'b.test',
      objectKey: 'post:1',
      plannedAt: t(2).toISOString(),
      job: {},
      attempts: 10,
      reason: 'gave up after 10 attempts: http_503',
    });
    expect(await store.count('b.test', 'held')).toBe(2);
    expect(await store.count('b.test', 'dead')).toBe(1);
    expect(await store.deadOf('b.test', 10)).toEqual([
      expect.objectContaining({
        _id: 'update-1',
        state: 'dead',
        lastError: 'gave up after 10 attempts: http_503',
      }),
    ]);
    expect(await store.buryAll('a.test', 'dropped: the domain is blocked')).toBe(1);
    expect(await store.domainsHolding()).toEqual(['b.test', 'c.test']);
    await store.remove('create-2');
    expect((await store.heldOf('b.test', 10)).map((r) => r._id)).toEqual(['create-1']);
    expect(await store.purgeDead(new Date(Date.now() + 1000))).toBe(2);
    expect(await store.count('b.test', 'dead')).toBe(0);
  });
});
