/**
 * SettingsStore on both engines (issue 22): defaults created once and never overwritten, the
 * compare-and-set that makes one first value win among concurrent writers (the server keys,
 * the role circles), the cache that a write in another process invalidates through the settings
 * stamp, and the admin and public listings.
 */
import { SETTINGS, SettingsStore } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { memoryStampStore } from '@agora/common/cache';
import { SETTING_DEFAULTS } from '@agora/common/settings';
import { engineFixtures } from '../engine/fixtures';

const ctx = { domain: 'social.test', siteTitle: 'Agora' };

describe.each(engineFixtures())('SettingsStore on $name', (fx) => {
  let engine: Engine;
  /** A store with no stamps: it caches for FALLBACK_TTL_MS, so most cases read a fresh one. */
  const fresh = () => new SettingsStore(engine);
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([SETTINGS]);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('creates every default once, from two processes at a time, with its value (an empty list too)', async () => {
    await Promise.all([fresh().ensureDefaults(ctx), fresh().ensureDefaults(ctx)]);
    const all = await fresh().listAll();
    expect(all.map((s) => s.name)).toEqual(SETTING_DEFAULTS.map((d) => d.name).sort());
    expect(await fresh().get('rules')).toEqual([]);
    expect(await fresh().get('registrationIsOpen')).toBe(true);
    expect(await fresh().get<{ urls: string[] }>('profile')).toMatchObject({ urls: ['https://social.test'] });
    expect(all.find((s) => s.name === 'privateKey')).toMatchObject({ to: '@private', canEdit: '@private' });
  });

  it('keeps values on a later start and refreshes only the metadata', async () => {
    const store = fresh();
    await store.set('registrationIsOpen', false);
    await store.writeValues([
      { name: 'rules', value: [{ id: 'r1', text: 'Be kind', html: '<p>Be kind</p>' }] },
    ]);
    await store.ensureDefaults(ctx);
    expect(await fresh().get('registrationIsOpen')).toBe(false);
    expect(await fresh().get('rules')).toEqual([{ id: 'r1', text: 'Be kind', html: '<p>Be kind</p>' }]);
  });

  it('setIfEmpty: of ten concurrent first values exactly one is stored, and every caller gets it', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => fresh().setIfEmpty('adminCircle', `circle:${i}`)),
    );
    const stored = await fresh().get<string>('adminCircle');
    expect(stored).toMatch(/^circle:\d$/);
    expect(answers).toEqual(Array.from({ length: 10 }, () => stored));
    // Once set, it stays.
    expect(await fresh().setIfEmpty('adminCircle', 'circle:later')).toBe(stored);
    // A setting not stored yet is empty too.
    expect(await fresh().setIfEmpty('brandNew', 'first')).toBe('first');
    expect(await fresh().setIfEmpty('brandNew', 'second')).toBe('first');
  });

  it('a write in one process is seen by the next read of another (the stamp), not after a TTL', async () => {
    const stamps = memoryStampStore();
    const a = new SettingsStore(engine, stamps);
    const b = new SettingsStore(engine, stamps);
    await a.set('siteSubtitle', 'before');
    expect(await b.get('siteSubtitle')).toBe('before');
    await a.set('siteSubtitle', 'after');
    expect(await b.get('siteSubtitle')).toBe('after');
    await a.writeValues([{ name: 'siteSubtitle', value: 'written' }]);
    expect(await b.get('siteSubtitle')).toBe('written');
    // Without a stamp move (a write through a third store with no stamps), b keeps its cached value.
    await fresh().set('siteSubtitle', 'unseen');
    expect(await b.get('siteSubtitle')).toBe('written');
    b.invalidate();
    expect(await b.get('siteSubtitle')).toBe('unseen');
  });

  it('a setting written before it is defined reads as public text, with its times', async () => {
    await fresh().set('orphanSetting', 'x');
    const { createdAt, updatedAt, ...rest } = (await fresh().findDefinition('orphanSetting'))!;
    expect(rest).toEqual({
      name: 'orphanSetting',
      value: 'x',
      to: '@public',
      canEdit: '@admin',
      ui: { type: 'text' },
    });
    expect(createdAt).toBeInstanceOf(Date);
    expect(updatedAt).toBeInstanceOf(Date);
    expect(await fresh().findDefinition('noSuchSetting')).toBeNull();
    expect(await fresh().get('noSuchSetting')).toBeUndefined();
  });

  it('publicValues: public and not redacted, by name', async () => {
    const values = await fresh().publicValues();
    expect(Object.keys(values)).toEqual(Object.keys(values).sort());
    expect(values).toMatchObject({ registrationIsOpen: false, orphanSetting: 'x' });
    for (const hidden of ['privateKey', 'publicKey', 'actorId', 'adminEmail', 'adminCircle'])
      expect(values).not.toHaveProperty(hidden);
  });

  it('recordsByName and writeValues: unknown names are left out, the records come back after', async () => {
    const byName = await fresh().recordsByName(['registrationIsOpen', 'nope', 'registrationIsOpen']);
    expect([...byName.keys()]).toEqual(['registrationIsOpen']);
    expect(await fresh().recordsByName([])).toEqual(new Map());
    const before = byName.get('registrationIsOpen')!.updatedAt!;
    await new Promise((r) => setTimeout(r, 5));
    const out = await fresh().writeValues([
      { name: 'registrationIsOpen', value: true },
      { name: 'nope', value: 1 },
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ name: 'registrationIsOpen', value: true });
    expect(out[0]!.updatedAt!.getTime()).toBeGreaterThan(before.getTime());
    expect(await fresh().findDefinition('nope')).toBeNull();
  });

  it('loses none of fifty concurrent writes of distinct settings', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => fresh().set(`many${i}`, i)));
    const names = Array.from({ length: 50 }, (_, i) => `many${i}`);
    const rows = await fresh().recordsByName(names);
    expect([...rows.values()].map((r) => r.value).sort((x, y) => Number(x) - Number(y))).toEqual(
      names.map((_, i) => i),
    );
  });
});
