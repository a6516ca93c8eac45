/**
 * ReactsStore on both engines (issue 22): one reaction per (actor, target) under concurrency (of
 * ten racing Reacts exactly one is stored), an emoji change is a compare-and-set (of racing
 * changes from one emoji read, exactly one wins), a removal answers to exactly one caller; a
 * reaction is found by its public id, and one made again answers to its new id only; a target's
 * reactions page newest first with their total; purging targets removes them.
 */
import { ListStore, REACTS, ReactsStore, STORE_SPECS } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const D = 'reacts.test';
const T = `post:target@${D}`;
let n = 0;
const react = (who: string, target = T, emoji = '👍') => ({
  id: `react:${++n}@${D}`,
  actorId: `@${who}@${D}`,
  target,
  emoji,
});

describe.each(engineFixtures())('ReactsStore on $name', (fx) => {
  let engine: Engine;
  let reacts: ReactsStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure(STORE_SPECS);
    reacts = new ReactsStore(engine, new ListStore(engine));
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('stores exactly one of ten concurrent reactions of one actor on one target', async () => {
    const tries = Array.from({ length: 10 }, () => react('ann'));
    const added = await Promise.all(tries.map((r) => reacts.add(r)));
    expect(added.filter(Boolean)).toHaveLength(1);
    const mine = await reacts.mine(`@ann@${D}`, T);
    expect(tries[added.indexOf(true)]!.id).toBe(mine?.id);
    expect(mine).toMatchObject({ objectType: 'React', emoji: '👍' });
    expect(mine?.createdAt).toBeInstanceOf(Date);
    const page = await reacts.pageForTarget(T, { skip: 0, limit: 10 });
    expect(page.total).toBe(1);
    expect(page.items.map((r) => r.id)).toEqual([mine?.id]);
  });

  it('changes an emoji for exactly one of ten concurrent changes from the same read', async () => {
    const existing = (await reacts.mine(`@ann@${D}`, T))!;
    const emoji = ['🎉', '❤️', '🔥', '👀', '😀', '🙏', '🤔', '😢', '👏', '💯'];
    const changed = await Promise.all(emoji.map((e) => reacts.changeEmoji(existing, e)));
    expect(changed.filter(Boolean)).toHaveLength(1);
    expect((await reacts.mine(`@ann@${D}`, T))?.emoji).toBe(emoji[changed.indexOf(true)]);
    // A change from a stale read (the emoji moved since) changes nothing.
    expect(await reacts.changeEmoji(existing, '🙂')).toBe(false);
  });

  it('removes for exactly one of ten concurrent removals', async () => {
    const removed = await Promise.all(Array.from({ length: 10 }, () => reacts.removeMine(`@ann@${D}`, T)));
    expect(removed.filter(Boolean)).toHaveLength(1);
    expect(await reacts.mine(`@ann@${D}`, T)).toBeNull();
    expect((await reacts.pageForTarget(T, { skip: 0, limit: 10 })).total).toBe(0);
  });

  it('finds a reaction by its public id; one made again answers to its new id only', async () => {
    const first = react('bob');
    expect(await reacts.add(first)).toBe(true);
    expect(await reacts.byId(first.id)).toMatchObject({ id: first.id, actorId: first.actorId, target: T });
    expect(await reacts.set(first.id, { name: 'thumbs' })).toMatchObject({ name: 'thumbs' });
    await reacts.removeMine(first.actorId, T);
    const again = react('bob');
    await reacts.add(again);
    expect(await reacts.byId(first.id)).toBeNull();
    expect(await reacts.removeById(first.id)).toBeNull();
    expect(await reacts.byId(again.id)).toMatchObject({ id: again.id });
    expect(await reacts.removeById(again.id)).toMatchObject({ id: again.id });
    expect(await reacts.byId(again.id)).toBeNull();
  });

  it("reads an actor's emoji on many targets at once, and pages a target newest first", async () => {
    const targets = [1, 2, 3].map((i) => `post:t${i}@${D}`);
    await reacts.add(react('cat', targets[0], '🎉'));
    await reacts.add(react('cat', targets[2], '🔥'));
    const mine = await reacts.mineOn(`@cat@${D}`, [...targets, targets[0]!]);
    expect(Object.fromEntries(mine)).toEqual({ [targets[0]!]: '🎉', [targets[2]!]: '🔥' });
    for (const who of ['dan', 'eve', 'fay']) {
      await reacts.add(react(who, targets[1]));
      await new Promise((r) => setTimeout(r, 2));
    }
    const page = await reacts.pageForTarget(targets[1]!, { skip: 1, limit: 5 });
    expect(page.total).toBe(3);
    expect(page.items.map((r) => r.actorId)).toEqual([`@eve@${D}`, `@dan@${D}`]);
    expect(page.items[0]).not.toHaveProperty('_id');
  });

  it("purges every reaction on targets, and counts and lists an actor's", async () => {
    const target = `post:purged@${D}`;
    for (const who of ['gus', 'hal']) await reacts.add(react(who, target));
    const before = await reacts.countAll();
    expect((await reacts.allByActor(`@gus@${D}`)).map((r) => r.target)).toEqual([target]);
    expect(await reacts.purgeForTargets([target])).toBe(2);
    expect(await reacts.countAll()).toBe(before - 2);
    expect(await reacts.mine(`@gus@${D}`, target)).toBeNull();
    expect((await reacts.pageForTarget(target, { skip: 0, limit: 5 })).total).toBe(0);
  });

  it('refreshes the author copy on every reaction of an actor', async () => {
    await reacts.add({ ...react('ivy', `post:x@${D}`), actor: { id: `@ivy@${D}`, name: 'old' } });
    await reacts.refreshActorCopy(`@ivy@${D}`, { 'actor.name': 'Ivy' });
    expect((await reacts.mine(`@ivy@${D}`, `post:x@${D}`))?.actor?.name).toBe('Ivy');
    expect(REACTS.name).toBe('reacts');
  });
});
