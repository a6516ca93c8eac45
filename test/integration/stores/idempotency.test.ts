/**
 * IdempotencyStore on both engines (issue 22): exactly one of many concurrent claims of a key
 * owns it; the others see it pending, finished (replayed) or claimed with another body; a
 * release lets a retry run; an expired row or a claim past its lease reads as absent and is
 * taken over by exactly one new claimer; the GC deletes expired rows by their `expiresAt` range.
 */
import {
  IDEMPOTENCY_KEYS,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  IdempotencyStore,
  requestHash,
} from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

// Near the real time: `waitFor` below runs on the real clock against rows claimed at T0.
const T0 = Date.now();

describe.each(engineFixtures())('IdempotencyStore on $name', (fx) => {
  let engine: Engine;
  let now = T0;
  let store: IdempotencyStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([IDEMPOTENCY_KEYS]);
    store = new IdempotencyStore(engine, () => now);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });
  beforeEach(() => {
    now = T0;
  });

  const body = requestHash({ type: 'Create', object: { content: 'hi' } });

  it('gives a key to exactly one of ten concurrent claimers; the others see it pending', async () => {
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim('@a', 'k1', body)));
    expect(claims.filter((c) => c.outcome === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.outcome === 'pending')).toHaveLength(9);
    expect(await store.find('@a', 'k1')).toMatchObject({
      bodyHash: body,
      state: 'pending',
      claimedAt: new Date(T0),
      expiresAt: new Date(T0 + IDEMPOTENCY_TTL_MS),
    });
  });

  it('is per actor; another body with the key is a mismatch; a finished one replays', async () => {
    expect(await store.claim('@b', 'k1', body)).toEqual({ outcome: 'claimed' });
    expect(await store.claim('@a', 'k1', requestHash({ other: true }))).toEqual({ outcome: 'mismatch' });
    const response = {
      activity: { id: 'activity:1', published: '2026-01-01T00:00:00.000Z' },
      createdId: 'post:1',
    };
    await store.complete('@a', 'k1', { status: 201, response });
    expect(await store.claim('@a', 'k1', body)).toEqual({ outcome: 'done', status: 201, response });
    expect(await store.claim('@a', 'k1', requestHash({ other: true }))).toEqual({ outcome: 'mismatch' });
  });

  it('a released key is claimed again by the retry', async () => {
    expect(await store.claim('@c', 'k2', body)).toEqual({ outcome: 'claimed' });
    await store.release('@c', 'k2');
    expect(await store.find('@c', 'k2')).toBeNull();
    expect(await store.claim('@c', 'k2', requestHash({ retry: 1 }))).toEqual({ outcome: 'claimed' });
  });

  it('waitFor returns the stored response once the holder finishes', async () => {
    expect(await store.claim('@d', 'k3', body)).toEqual({ outcome: 'claimed' });
    const real = new IdempotencyStore(engine);
    const waiting = real.waitFor('@d', 'k3', body, { timeoutMs: 5000, intervalMs: 20 });
    await new Promise((r) => setTimeout(r, 50));
    await store.complete('@d', 'k3', { status: 200, response: { ok: true } });
    expect(await waiting).toEqual({ outcome: 'done', status: 200, response: { ok: true } });
    expect(await real.waitFor('@d', 'k4', body, { timeoutMs: 0, intervalMs: 1 })).toEqual({
      outcome: 'claimed',
    });
  });

  it('a claim pending past its lease is taken over by exactly one of five new claimers', async () => {
    expect(await store.claim('@e', 'k5', body)).toEqual({ outcome: 'claimed' });
    now = T0 + IDEMPOTENCY_LEASE_MS - 1;
    expect(await store.claim('@e', 'k5', body)).toEqual({ outcome: 'pending' });
    now = T0 + IDEMPOTENCY_LEASE_MS;
    expect(await store.find('@e', 'k5')).toBeNull();
    const claims = await Promise.all(Array.from({ length: 5 }, () => store.claim('@e', 'k5', body)));
    expect(claims.filter((c) => c.outcome === 'claimed')).toHaveLength(1);
    expect(await store.find('@e', 'k5')).toMatchObject({ claimedAt: new Date(now), state: 'pending' });
  });

  it('a finished key expires after 24 hours: it reads as absent, a new claim runs, the GC deletes it', async () => {
    expect(await store.claim('@f', 'k6', body)).toEqual({ outcome: 'claimed' });
    await store.complete('@f', 'k6', { status: 201, response: { n: 1 } });
    expect(await store.claim('@f', 'k7', body)).toEqual({ outcome: 'claimed' });
    await store.complete('@f', 'k7', { status: 201, response: { n: 2 } });
    now = T0 + IDEMPOTENCY_TTL_MS - 1;
    expect(await store.find('@f', 'k6')).toMatchObject({ state: 'done' });
    expect(await store.claim('@f', 'k8', body)).toEqual({ outcome: 'claimed' }); // not expired at the sweep
    now = T0 + IDEMPOTENCY_TTL_MS;
    expect(await store.find('@f', 'k6')).toBeNull();
    // A new request with an expired key runs (the row is taken over, not replayed).
    expect(await store.claim('@f', 'k6', requestHash({ again: true }))).toEqual({ outcome: 'claimed' });
    now = T0 + IDEMPOTENCY_TTL_MS + 1;
    const purged = await store.purgeExpired();
    // Every row claimed at T0 went (k7 and those of the cases before); k6's new claim and k8 stay.
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await store.find('@f', 'k7', 0)).toBeNull();
    expect(await store.find('@f', 'k6', now)).toMatchObject({ state: 'pending' });
    expect(await store.find('@f', 'k8', now)).toMatchObject({ state: 'pending' });
    expect(await store.purgeExpired()).toBe(0);
  });
});
