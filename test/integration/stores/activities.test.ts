/**
 * ActivitiesStore on both engines (issue 22), index coverage checked: the audit log with every
 * combination of the admin filters and the actor's own log, newest first and partitioned by
 * offset; an inbound activity recorded once however many deliveries race; the event outbox the
 * relay reads (longest waiting first, only rows past the grace), claims (one of many racing
 * relays) and clears, with nothing lost when many activities are recorded and confirmed at once.
 */
import { ACTIVITIES, ActivitiesStore, EVENT_OUTBOX, type StoredEvent } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

describe.each(engineFixtures())('ActivitiesStore on $name', (fx) => {
  let engine: Engine;
  let store: ActivitiesStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([ACTIVITIES, EVENT_OUTBOX]);
    store = new ActivitiesStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const ev = (id: string): StoredEvent[] => [{ name: 'activity.Create', payload: { activityId: id } }];
  const later = () => new Date(Date.now() + 60_000);
  const shown = (rows: Array<{ activityId: string; events: StoredEvent[] }>) =>
    rows.map(({ activityId, events }) => ({ activityId, events }));
  const all = { skip: 0, limit: 100 };

  it('records an activity with its events; the same id again is refused and keeps the first row', async () => {
    const saved = await store.record(
      { id: 'activity:1@a.test', type: 'Create', actorId: '@ann@a.test', objectType: 'Post', to: undefined },
      ev('activity:1@a.test'),
    );
    expect(saved).toMatchObject({ id: 'activity:1@a.test', type: 'Create', objectType: 'Post' });
    expect(saved!.createdAt).toBeInstanceOf(Date);
    expect(saved).not.toHaveProperty('to');
    expect(saved).not.toHaveProperty('_id');
    expect(await store.byId('activity:1@a.test')).toMatchObject({
      id: 'activity:1@a.test',
      actorId: '@ann@a.test',
    });
    expect(await store.ofActor('@ann@a.test', 'activity:1@a.test')).not.toBeNull();
    expect(await store.ofActor('@bob@a.test', 'activity:1@a.test')).toBeNull();
    expect(
      await store.record({ id: 'activity:1@a.test', type: 'Create', actorId: '@ann@a.test' }, ev('x')),
    ).toBeNull();
    const pending = await store.due(later(), 100);
    expect(shown(pending)).toEqual([{ activityId: 'activity:1@a.test', events: ev('activity:1@a.test') }]);
    expect(pending[0]!.due).toBeInstanceOf(Date);
    await store.markPublished('activity:1@a.test');
    expect(await store.due(later(), 100)).toEqual([]);
  });

  it('an inbound activity id is recorded once of ten racing deliveries, with one outbox row', async () => {
    const deliveries = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.record(
          {
            id: `activity:in${i}@a.test`,
            type: 'Create',
            actorId: 'https://peer.example/users/p',
            remoteId: 'https://peer.example/activities/1',
            raw: '{}',
            inbound: { status: 'accepted', keyId: 'k', receivedAt: new Date() },
          },
          ev(`activity:in${i}@a.test`),
        ),
      ),
    );
    const kept = deliveries.filter((d) => d !== null);
    expect(kept).toHaveLength(1);
    const rows = await store.due(later(), 100);
    expect(rows.map((r) => r.activityId)).toEqual([kept[0]!.id]);
    // Where its processing stands, dates kept as dates.
    await store.setInbound(kept[0]!.id, {
      ...kept[0]!.inbound!,
      status: 'processed',
      processedAt: new Date(),
    });
    const after = await store.byId(kept[0]!.id);
    expect(after!.inbound).toMatchObject({ status: 'processed', keyId: 'k' });
    expect(after!.inbound!.receivedAt).toBeInstanceOf(Date);
    expect(after!.inbound!.processedAt).toBeInstanceOf(Date);
    await store.markPublished(kept[0]!.id);
    // Found again by the other server's id; an activity of this server's is never one.
    expect(await store.byRemoteId('https://peer.example/activities/1')).toMatchObject({ id: kept[0]!.id });
    expect(await store.byRemoteId('https://peer.example/activities/2')).toBeNull();
    expect(await store.byRemoteId('activity:1@a.test')).toBeNull();
  });

  it('fifty activities recorded at once are all stored with their rows; confirmed at once, all rows go', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `activity:m${String(i).padStart(2, '0')}@a.test`);
    const saved = await Promise.all(
      ids.map((id) => store.record({ id, type: 'Create', actorId: '@many@a.test' }, ev(id))),
    );
    expect(saved.map((s) => s?.id)).toEqual(ids);
    expect((await store.pageForAdmin({ actorId: '@many@a.test' }, all)).total).toBe(50);
    expect((await store.due(later(), 100)).map((r) => r.activityId).sort()).toEqual(ids);
    await Promise.all(ids.map((id) => store.markPublished(id)));
    expect(await store.due(later(), 100)).toEqual([]);
  });

  it('the relay reads only rows past the grace, longest waiting first; no events, no row', async () => {
    const before = new Date();
    await new Promise((r) => setTimeout(r, 5));
    await store.record({ id: 'activity:f1@a.test', type: 'Create', actorId: '@ann@a.test' }, ev('f1'));
    await new Promise((r) => setTimeout(r, 5));
    await store.record({ id: 'activity:f2@a.test', type: 'Create', actorId: '@ann@a.test' }, ev('f2'));
    // An activity with no events leaves no row.
    await store.record({ id: 'activity:f3@a.test', type: 'Create', actorId: '@ann@a.test' }, []);
    expect(await store.due(before, 100)).toEqual([]);
    const rows = await store.due(later(), 100);
    expect(shown(rows)).toEqual([
      { activityId: 'activity:f1@a.test', events: ev('f1') },
      { activityId: 'activity:f2@a.test', events: ev('f2') },
    ]);
    expect(await store.due(later(), 1)).toHaveLength(1);
    for (const r of rows) await store.markPublished(r.activityId);
  });

  it('of ten relays claiming one due row at once, exactly one claims it; it is then not due until its grace passes again', async () => {
    await store.record({ id: 'activity:c1@a.test', type: 'Create', actorId: '@ann@a.test' }, ev('c1'));
    await new Promise((r) => setTimeout(r, 5));
    const readAt = new Date();
    const [row] = await store.due(readAt, 100);
    expect(row!.activityId).toBe('activity:c1@a.test');
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim(row!)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    // Claimed after `readAt`: a relay with the same grace does not see it again yet.
    expect(await store.due(readAt, 100)).toEqual([]);
    const again = await store.due(later(), 100);
    expect(shown(again)).toEqual([{ activityId: 'activity:c1@a.test', events: ev('c1') }]);
    expect(again[0]!.due.getTime()).toBeGreaterThanOrEqual(readAt.getTime());
    // A stale read claims nothing; a published row cannot be claimed.
    expect(await store.claim(row!)).toBe(false);
    await store.markPublished('activity:c1@a.test');
    expect(await store.claim(again[0]!)).toBe(false);
  });

  it("pages the log by every combination of the admin filters, and the actor's own log", async () => {
    const base = Date.now();
    const log = [
      { type: 'Create', actorId: '@p@l.test', objectType: 'Post' },
      { type: 'Create', actorId: '@q@l.test', objectType: 'Post' },
      { type: 'Update', actorId: '@p@l.test', objectType: 'Post' },
      { type: 'Create', actorId: '@p@l.test', objectType: 'Circle' },
      { type: 'Delete', actorId: '@q@l.test', objectType: 'Circle' },
    ];
    for (const [i, a] of log.entries())
      await store.record({ id: `activity:l${i}@l.test`, ...a, object: { at: new Date(base) } }, []);
    const of = async (filter: Record<string, string>) =>
      (await store.pageForAdmin(filter, all)).items.filter((a) => a.id.endsWith('@l.test')).map((a) => a.id);
    const expectIds = (...is: number[]) => is.map((i) => `activity:l${i}@l.test`);
    expect(await of({ actorId: '@p@l.test' })).toEqual(expectIds(3, 2, 0));
    expect(await of({ type: 'Create', actorId: '@p@l.test' })).toEqual(expectIds(3, 0));
    expect(await of({ objectType: 'Circle' })).toEqual(expectIds(4, 3));
    expect(await of({ type: 'Create', objectType: 'Post' })).toEqual(expectIds(1, 0));
    expect(await of({ actorId: '@q@l.test', objectType: 'Circle' })).toEqual(expectIds(4));
    expect(await of({ type: 'Create', actorId: '@p@l.test', objectType: 'Circle' })).toEqual(expectIds(3));
    expect(await of({ type: 'Update' })).toEqual(expectIds(2));
    // Unknown keys never reach the query.
    expect((await store.pageForAdmin({ ...{ deletedAt: 'x' } } as never, all)).total).toBe(
      await store.count(),
    );

    const mine = await store.pageForActor('@p@l.test', { skip: 1, limit: 1 }, ['id', 'type']);
    expect(mine).toEqual({ total: 3, items: [{ id: 'activity:l2@l.test', type: 'Update' }] });
    // Offset pages partition the log.
    const total = await store.count();
    const seen: string[] = [];
    for (let skip = 0; skip < total; skip += 4)
      seen.push(...(await store.pageForAdmin({}, { skip, limit: 4 })).items.map((a) => a.id));
    expect(new Set(seen).size).toBe(total);
    expect(seen).toHaveLength(total);
  });
});
