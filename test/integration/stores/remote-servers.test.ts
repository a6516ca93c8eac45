/**
 * RemoteServersStore on both engines (issue 22: every store's tests run on both adapters, with
 * index coverage checked): the poll lease goes to exactly one of many concurrent claimers, is not
 * due again before its time, and failures move it by their backoff. The known-server fields (last
 * seen, NodeInfo, circuit, block) are set on a row that may not exist yet; the probe and drain
 * leases go to exactly one of many claimers; the blocked domains are read by their index.
 */
import { RemoteServersStore, REMOTE_SERVERS } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

describe.each(engineFixtures())('RemoteServersStore on $name', (fx) => {
  let engine: Engine;
  let store: RemoteServersStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([REMOTE_SERVERS]);
    store = new RemoteServersStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const t = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);

  it('gives an unknown server to exactly one of ten concurrent claimers', async () => {
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => store.claimPoll('a.test', t(0), t(60))),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await store.byDomain('a.test')).toMatchObject({
      domain: 'a.test',
      nextPollAt: t(60),
      errorCount: 0,
    });
  });

  it('is not due before nextPollAt; once due, one of ten claimers moves it', async () => {
    expect(await store.claimPoll('a.test', t(30), t(90))).toBeNull();
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => store.claimPoll('a.test', t(61), t(120))),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await store.byDomain('a.test'))?.nextPollAt).toEqual(t(120));
  });

  it('records failures with their backoff and a success that ends the streak', async () => {
    await store.pollFailed('a.test', 2, 'x'.repeat(400), t(500));
    expect(await store.byDomain('a.test')).toMatchObject({ errorCount: 2, nextPollAt: t(500) });
    expect((await store.byDomain('a.test'))?.lastError).toHaveLength(300);
    expect(await store.claimPoll('a.test', t(499), t(600))).toBeNull();
    await store.pollSucceeded('a.test', t(510));
    expect(await store.byDomain('a.test')).toMatchObject({
      errorCount: 0,
      lastError: null,
      lastPolledAt: t(510),
    });
  });

  it('creates a row on first contact and keeps the poll fields when later fields are set', async () => {
    await store.seen('b.test', 'inbound', t(1));
    expect(await store.byDomain('b.test')).toMatchObject({
      domain: 'b.test',
      lastSeenAt: t(1),
      lastSeenVia: 'inbound',
      blocked: false,
      errorCount: 0,
    });
    expect((await store.byDomain('b.test'))?.nextPollAt ?? null).toBeNull();
    // A row made by a contact is polled like any other.
    expect(await store.claimPoll('b.test', t(1), t(61))).not.toBeNull();
    await store.recordCircuit('b.test', { state: 'open', until: t(300), at: t(2) });
    await store.recordNodeInfo('b.test', {
      software: { name: 'agora', version: '1.0.0' },
      protocols: ['activitypub'],
      compatible: true,
      fetchedAt: t(3),
      refreshAt: t(3603),
    });
    // A failed read keeps what an earlier one said.
    await store.recordNodeInfo('b.test', { error: 'answered 503', fetchedAt: t(4000), refreshAt: t(7600) });
    expect(await store.byDomain('b.test')).toMatchObject({
      lastSeenAt: t(1),
      circuit: { state: 'open', until: t(300) },
      nodeinfo: {
        software: { name: 'agora', version: '1.0.0' },
        compatible: true,
        error: 'answered 503',
        refreshAt: t(7600),
      },
    });
  });

  it('blocks and unblocks; the blocked domains are listed', async () => {
    expect(await store.setBlocked('c.test', true, '@admin@here.test', 'spam')).toBeNull();
    await store.setBlocked('b.test', true, '@admin@here.test');
    expect((await store.blockedDomains()).sort()).toEqual(['b.test', 'c.test']);
    await store.countRefusedInbound('c.test');
    await store.countRefusedInbound('c.test');
    expect(await store.byDomain('c.test')).toMatchObject({
      blocked: true,
      blockedBy: '@admin@here.test',
      blockReason: 'spam',
      refusedInbound: 2,
    });
    const before = await store.setBlocked('c.test', false, '@admin@here.test');
    expect(before?.blocked).toBe(true);
    expect(await store.blockedDomains()).toEqual(['b.test']);
    expect(await store.byDomain('c.test')).toMatchObject({ blocked: false, blockReason: null });
  });

  it('gives a probe and a drain to exactly one of ten concurrent claimers', async () => {
    const probes = await Promise.all(
      Array.from({ length: 10 }, () => store.claimProbe('b.test', t(10), t(30))),
    );
    expect(probes.filter(Boolean)).toHaveLength(1);
    expect(await store.claimProbe('b.test', t(20), t(40))).toBe(false);
    expect(await store.claimProbe('b.test', t(30), t(50))).toBe(true);
    const now = new Date();
    const drains = await Promise.all(
      Array.from({ length: 10 }, () => store.claimDrain('d.test', now, new Date(now.getTime() + 60_000))),
    );
    expect(drains.filter(Boolean)).toHaveLength(1);
    await store.releaseDrain('d.test');
    expect(await store.claimDrain('d.test', now, new Date(now.getTime() + 60_000))).toBe(true);
  });

  it('lists every known server in domain order', async () => {
    expect(await store.count()).toBe(4);
    expect((await store.page(0, 10)).map((r) => r.domain)).toEqual(['a.test', 'b.test', 'c.test', 'd.test']);
    expect((await store.page(1, 2)).map((r) => r.domain)).toEqual(['b.test', 'c.test']);
  });
});
