/**
 * RemoteServersStore on both engines (issue 22: every store's tests run on both adapters, with
 * index coverage checked): the poll lease goes to exactly one of many concurrent claimers, is not
 * due again before its time, and failures move it by their backoff.
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
});
