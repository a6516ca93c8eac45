/**
 * NotificationsStore on both engines (issue 22), index coverage checked: pages newest first with
 * ties in one millisecond broken by id (cursor.ts `newestFirst`) and the filters' totals, unread
 * counts, read / unread / dismiss / read-all, recipients kept apart, one notification per event,
 * and grouping that stays exact when events of one group race.
 */
import { NotificationsStore, newestFirst, type NewNotification } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

describe.each(engineFixtures())('NotificationsStore on $name', (fx) => {
  let engine: Engine;
  let store: NotificationsStore;
  beforeAll(async () => {
    engine = await fx.open();
    store = new NotificationsStore(engine);
    await store.prepare();
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  let n = 0;
  /** A notification of its own group and event unless told otherwise. */
  const note = (recipientId: string, extra: Partial<NewNotification> = {}): NewNotification => {
    const id = `notification:${(++n).toString(16).padStart(24, '0')}@s.test`;
    return {
      id,
      type: 'reply',
      recipientId,
      actorId: '@ann@s.test',
      actorName: 'ann',
      summary: 'ann replied',
      href: '/posts/1',
      groupKey: `g:${id}`,
      eventId: `evt:${id}|reply|${recipientId}`,
      ...extra,
    };
  };
  const all = { skip: 0, limit: 100 };
  const ids = (page: { items: Array<{ id: string }> }) => page.items.map((i) => i.id);

  it('pages newest first, ties in one millisecond by id, with the total; partitions by offset', async () => {
    const bob = '@bob@pages.test';
    const T = Date.UTC(2026, 2, 1);
    const made: Array<{ id: string; at: number }> = [];
    // 25 notifications, 20 of them in one millisecond, written out of order.
    for (const i of [
      3, 0, 24, 7, 12, 1, 19, 5, 22, 9, 15, 2, 18, 11, 4, 21, 8, 13, 6, 23, 10, 17, 14, 20, 16,
    ]) {
      const at = i < 3 ? T - 1 : i < 23 ? T : T + 1;
      const nn = note(bob, {
        id: `notification:${i.toString(16).padStart(24, '0')}@pages.test`,
        createdAt: new Date(at),
      });
      expect(await store.create(nn)).toBe('created');
      made.push({ id: nn.id, at });
    }
    const expected = [...made].sort(newestFirst).map((m) => m.id);
    const first = await store.pageFor(bob, {}, all);
    expect(first.total).toBe(25);
    expect(ids(first)).toEqual(expected);
    const paged: string[] = [];
    for (let skip = 0; skip < 25; skip += 7)
      paged.push(...ids(await store.pageFor(bob, {}, { skip, limit: 7 })));
    expect(paged).toEqual(expected);
    expect(first.items[0]).not.toHaveProperty('eventId');
    expect(first.items[0]).not.toHaveProperty('groupSeq');
    expect(first.items[0]).not.toHaveProperty('_id');
    expect(first.items[0]!.createdAt).toBeInstanceOf(Date);
    expect(await store.pageFor(bob, {}, { skip: 0, limit: 0 })).toEqual({ total: 25, items: [] });
  });

  it("leaves hidden actors' notifications out of every page, total and unread count, ties in one millisecond included", async () => {
    const eve = '@eve@hidden.test';
    const SUS = '@sus@hidden.test';
    const T = Date.UTC(2026, 3, 1);
    const made: Array<{ id: string; at: number; hidden: boolean; type: string }> = [];
    // 30 notifications, half of them in one millisecond; every third from the suspended actor.
    for (let i = 0; i < 30; i++) {
      const hidden = i % 3 === 1;
      const at = i % 2 ? T : T + i;
      const type = i % 4 === 0 ? 'react' : 'reply';
      const nn = note(eve, {
        id: `notification:${(1000 + i).toString(16).padStart(24, '0')}@hidden.test`,
        createdAt: new Date(at),
        type: type as NewNotification['type'],
        ...(hidden ? { actorId: SUS } : {}),
      });
      expect(await store.create(nn)).toBe('created');
      made.push({ id: nn.id, at, hidden, type });
    }
    const dismissed = made.find((m) => m.hidden)!;
    await store.dismiss(eve, dismissed.id);
    const read = made.find((m) => m.hidden && m.id !== dismissed.id)!;
    await store.setRead(eve, read.id, true);
    const hide = new Set([SUS]);
    const kept = [...made]
      .sort(newestFirst)
      .filter((m) => !m.hidden)
      .map((m) => m.id);
    for (const limit of [1, 4, 7, 30]) {
      const paged: string[] = [];
      for (let skip = 0; skip < kept.length + limit; skip += limit) {
        const page = await store.pageFor(eve, {}, { skip, limit }, hide);
        expect(page.total).toBe(kept.length);
        paged.push(...ids(page));
      }
      expect(paged).toEqual(kept);
    }
    const replies = made.filter((m) => !m.hidden && m.type === 'reply').length;
    expect((await store.pageFor(eve, { types: ['reply'] }, all, hide)).total).toBe(replies);
    expect(await store.unreadCount(eve, undefined, hide)).toBe(kept.length);
    expect(await store.unreadCount(eve, ['reply'], hide)).toBe(replies);
    // Without the set, they are all there again (but the dismissed one).
    expect((await store.pageFor(eve, {}, all)).total).toBe(29);
    expect(await store.unreadCount(eve)).toBe(28);
  });

  it('filters by types and unread, counts unread, reads, unreads, dismisses and reads all', async () => {
    const cat = '@cat@flags.test';
    const reply = note(cat);
    const react = note(cat, { type: 'react' });
    const follow = note(cat, { type: 'follow' });
    for (const x of [reply, react, follow]) await store.create(x);
    // Someone else's notifications never count for cat, nor can cat change them.
    const other = note('@dan@flags.test');
    await store.create(other);

    expect(await store.unreadCount(cat)).toBe(3);
    expect(await store.unreadCount(cat, ['reply', 'react'])).toBe(2);
    expect((await store.setRead(cat, reply.id, true))?.read).toBe(true);
    expect(await store.setRead(cat, other.id, true)).toBeNull();
    expect(await store.dismiss(cat, other.id)).toBeNull();
    expect(await store.unreadCount('@dan@flags.test')).toBe(1);
    expect(await store.unreadCount(cat)).toBe(2);
    expect(ids(await store.pageFor(cat, { unreadOnly: true }, all)).sort()).toEqual(
      [follow.id, react.id].sort(),
    );
    expect(await store.pageFor(cat, { types: ['reply'] }, all)).toMatchObject({ total: 1 });
    expect(await store.pageFor(cat, { types: ['reply'], unreadOnly: true }, all)).toMatchObject({ total: 0 });
    expect(await store.pageFor(cat, { types: ['react', 'follow'], unreadOnly: true }, all)).toMatchObject({
      total: 2,
    });
    // Unread again; twice changes nothing more.
    await store.setRead(cat, reply.id, false);
    expect((await store.setRead(cat, reply.id, false))?.read).toBe(false);
    expect(await store.unreadCount(cat)).toBe(3);

    // Dismissed: out of the list and the counts, its read flag left as it was.
    const dismissed = await store.dismiss(cat, follow.id);
    expect(dismissed).toMatchObject({ dismissed: true, read: false });
    expect(await store.unreadCount(cat)).toBe(2);
    expect((await store.pageFor(cat, {}, all)).total).toBe(2);
    expect(ids(await store.pageFor(cat, {}, all))).not.toContain(follow.id);

    // Read-all of some types, then of all: dismissed ones included (§6.4), each counted once.
    expect(await store.readAll(cat, ['react'])).toBe(1);
    expect(await store.unreadCount(cat)).toBe(1);
    expect(await store.readAll(cat)).toBe(2); // the reply and the dismissed follow
    expect(await store.readAll(cat)).toBe(0);
    expect(await store.unreadCount(cat)).toBe(0);
    expect(await store.unreadCount('@dan@flags.test')).toBe(1);
  });

  it('concurrent read-alls and flag changes count each notification once', async () => {
    const eve = '@eve@race.test';
    for (let i = 0; i < 20; i++) await store.create(note(eve));
    const changed = await Promise.all(Array.from({ length: 5 }, () => store.readAll(eve)));
    expect(changed.reduce((a, b) => a + b, 0)).toBe(20);
    expect(await store.unreadCount(eve)).toBe(0);
  });

  it('one notification per event, however often and concurrently it is delivered', async () => {
    const fay = '@fay@events.test';
    const first = note(fay, { eventId: 'evt-1|reply|fay' });
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        store.create({ ...first, id: `${first.id.slice(0, -2)}${i}`, groupKey: `g:${i}` }),
      ),
    );
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'created').every((o) => o === 'duplicate')).toBe(true);
    // Read: grouping cannot be what stops a redelivery.
    await store.readAll(fay);
    expect(await store.create({ ...first, id: note(fay).id })).toBe('duplicate');
    expect((await store.pageFor(fay, {}, all)).total).toBe(1);
  });

  it('groups by the newest of a group: pending stands in, read does not, a cooldown holds seen ones', async () => {
    const gus = '@gus@groups.test';
    const hour = 60 * 60_000;
    expect(await store.create(note(gus, { groupKey: 'reply:1' }))).toBe('created');
    expect(await store.create(note(gus, { groupKey: 'reply:1' }))).toBe('grouped');
    await store.readAll(gus);
    const second = note(gus, { groupKey: 'reply:1' });
    expect(await store.create(second)).toBe('created');
    await store.dismiss(gus, second.id);
    expect(await store.create(note(gus, { groupKey: 'reply:1' }))).toBe('created');
    // Older than the day's window: a pending one no longer stands in.
    expect(
      await store.create(note(gus, { groupKey: 'old', createdAt: new Date(Date.now() - 25 * hour) })),
    ).toBe('created');
    expect(await store.create(note(gus, { groupKey: 'old' }))).toBe('created');
    // Digests: a seen one stands in until it is older than the cooldown.
    expect(await store.create(note(gus, { groupKey: 'feed', type: 'new_post' }), { cooldownMs: hour })).toBe(
      'created',
    );
    await store.readAll(gus);
    expect(await store.create(note(gus, { groupKey: 'feed', type: 'new_post' }), { cooldownMs: hour })).toBe(
      'grouped',
    );
    expect(await store.create(note(gus, { groupKey: 'feed', type: 'new_post' }), { cooldownMs: 0 })).toBe(
      'created',
    );
    // Other recipients' groups of the same key are theirs.
    expect(await store.create(note('@hal@groups.test', { groupKey: 'reply:1' }))).toBe('created');
  });

  it('of 12 concurrent events of one group, exactly one makes a notification', async () => {
    const ida = '@ida@race.test';
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, () => store.create(note(ida, { groupKey: 'reply:race' }))),
    );
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'grouped')).toHaveLength(11);
    expect((await store.pageFor(ida, {}, all)).total).toBe(1);
    // Once read, the next round again makes exactly one.
    await store.readAll(ida);
    const again = await Promise.all(
      Array.from({ length: 12 }, () => store.create(note(ida, { groupKey: 'reply:race' }))),
    );
    expect(again.filter((o) => o === 'created')).toHaveLength(1);
    expect((await store.pageFor(ida, {}, all)).total).toBe(2);
  });
});
