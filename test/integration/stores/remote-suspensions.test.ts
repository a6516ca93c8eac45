/**
 * RemoteSuspensionsStore on both engines, index coverage checked (ADR 0028): a peer's suspension
 * of one of its actors is recorded once however often and concurrently it arrives, lifted once,
 * and the whole set is one read; and the reads that decide whether this server holds something
 * of an actor (a live post, a live reply, a reaction) are served by their indexes.
 */
import {
  ListStore,
  ReactsStore,
  RemoteSuspensionsStore,
  RepliesStore,
  REACTS,
  REMOTE_SUSPENSIONS,
  REPLIES,
  LIST_COUNTS,
  LIST_ENTRIES,
} from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const D = 'peer.test';

describe.each(engineFixtures())('RemoteSuspensionsStore on $name', (fx) => {
  let engine: Engine;
  let store: RemoteSuspensionsStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([REMOTE_SUSPENSIONS, REPLIES, REACTS, LIST_ENTRIES, LIST_COUNTS]);
    store = new RemoteSuspensionsStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('records a suspension once of ten concurrent ones, lifts it once, and reads the set whole', async () => {
    const ann = `@ann@${D}`;
    const suspended = await Promise.all(Array.from({ length: 10 }, () => store.suspend(ann)));
    expect(suspended.filter(Boolean)).toHaveLength(1);
    expect(await store.suspend(`@bob@${D}`)).toBe(true);
    expect((await store.ids()).sort()).toEqual([ann, `@bob@${D}`]);
    expect(await store.has(ann)).toBe(true);
    const lifted = await Promise.all(Array.from({ length: 5 }, () => store.lift(ann)));
    expect(lifted.filter(Boolean)).toHaveLength(1);
    expect(await store.has(ann)).toBe(false);
    expect(await store.ids()).toEqual([`@bob@${D}`]);
  });

  it('tells whether an actor has a live reply or a reaction here, by their indexes', async () => {
    const lists = new ListStore(engine);
    const replies = new RepliesStore(engine, lists);
    const reacts = new ReactsStore(engine, lists);
    const cat = `@cat@${D}`;
    expect(await replies.anyLiveBy(cat)).toBe(false);
    expect(await reacts.anyBy(cat)).toBe(false);
    await replies.create({ id: `reply:r1@${D}`, actorId: cat, target: `post:p@${D}`, parent: `post:p@${D}` });
    await reacts.add({ id: `react:x1@${D}`, actorId: cat, target: `post:p@${D}`, emoji: '⚓' });
    expect(await replies.anyLiveBy(cat)).toBe(true);
    expect(await reacts.anyBy(cat)).toBe(true);
    await replies.softDelete(`reply:r1@${D}`, { deletedAt: new Date() });
    expect(await replies.anyLiveBy(cat)).toBe(false);
    expect(await replies.liveTargetsByAuthor(cat)).toEqual([]);
  });
});
