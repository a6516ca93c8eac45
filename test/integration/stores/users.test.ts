/**
 * UsersStore on both engines (issue 22): secrets never leave the store unless a flow asks,
 * one account per name and per e-mail address even for racing registrations (and any number of
 * accounts without an address), single-use tokens, counters that lose nothing and never go below
 * zero, exactly one winner of concurrent deletes and restores, and the admin and member lists
 * with every filter the API offers (index coverage is checked).
 */
import { DuplicateKeyError, USERS, UsersStore } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const DOMAIN = 'users.test';
const SECRETS = /password|VerificationToken|VerificationExpires|ResetToken|ResetExpires/;
const page = { skip: 0, limit: 100 };

describe.each(engineFixtures())('UsersStore on $name', (fx) => {
  let engine: Engine;
  let users: UsersStore;
  const changed: string[] = [];
  const create = (name: string, extra: Record<string, unknown> = {}) =>
    users.create({
      id: `@${name}@${DOMAIN}`,
      username: name,
      domain: DOMAIN,
      password: `hash-${name}`,
      ...extra,
    });

  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([USERS]);
    users = new UsersStore(engine, DOMAIN, (id) => {
      changed.push(id);
      return Promise.resolve();
    });
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('creates with defaults; no read but the login ones gives out a secret', async () => {
    const created = await create('alice', {
      email: '  Alice@Example.TEST ',
      emailVerificationToken: 'vt',
      emailVerificationExpires: new Date(Date.now() + 60_000),
    });
    expect(created).toMatchObject({
      active: true,
      deletedAt: null,
      postCount: 0,
      to: '@public',
      emailVerified: false,
    });
    expect(created.email).toBe('alice@example.test');
    const reads = [
      created,
      await users.findById('@alice@users.test'),
      await users.findActiveById('@alice@users.test'),
      await users.findByEmail('ALICE@example.test'),
      await users.update('@alice@users.test', { 'profile.name': 'Alice' }),
      [...(await users.liveByIds(['@alice@users.test'])).values()][0],
      (await users.pageForAdmin({}, page)).items,
      (await users.pageLocalMembers(page)).items,
    ];
    expect(JSON.stringify(reads)).not.toMatch(SECRETS);
    expect((await users.findForLogin({ username: 'ALICE' }, DOMAIN))?.password).toBe('hash-alice');
    expect(await users.findWithSecrets('@alice@users.test')).toMatchObject({ emailVerificationToken: 'vt' });
    expect((await users.findById('@alice@users.test'))?.profile).toEqual({ name: 'Alice' });
  });

  it('one account per name and per address, even racing; any number without an address', async () => {
    const names = await Promise.allSettled(Array.from({ length: 5 }, () => create('bob')));
    expect(names.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of names) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DuplicateKeyError);
    const mails = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => create(`mail${i}`, { email: 'same@example.test' })),
    );
    expect(mails.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    await create('nomail1');
    await create('nomail2');
    expect(await users.existsByUsername('nomail2', DOMAIN)).toBe(true);
    expect(await users.existsByEmail('SAME@example.test')).toBe(true);
    expect(await users.existsByEmail('nobody@example.test')).toBe(false);
  });

  it('a verification token is consumed once, even by racing requests', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => users.consumeVerificationToken('vt')));
    expect(results.filter(Boolean)).toEqual(['@alice@users.test']);
    const after = await users.findWithSecrets('@alice@users.test');
    expect(after).toMatchObject({ emailVerified: true });
    expect(after?.emailVerificationToken).toBeUndefined();
    // Verified: no new verification token for this address; an unknown address: none either.
    const later = new Date(Date.now() + 60_000);
    expect(await users.setVerificationToken('alice@example.test', DOMAIN, 'vt2', later)).toBe(false);
    expect(await users.setVerificationToken('nobody@example.test', DOMAIN, 'vt2', later)).toBe(false);
  });

  it('a reset token works once, not after expiry, and not for a deleted account', async () => {
    const soon = new Date(Date.now() + 60_000);
    expect(await users.setResetToken('Alice@example.test', DOMAIN, 'rt', soon)).toBe(true);
    expect(await users.setResetToken('alice@example.test', 'other.test', 'rt', soon)).toBe(false);
    const results = await Promise.all(Array.from({ length: 5 }, () => users.resetPassword('rt', 'new-hash')));
    expect(results.filter(Boolean)).toEqual(['@alice@users.test']);
    expect((await users.findForLogin({ id: '@alice@users.test' }, DOMAIN))?.password).toBe('new-hash');
    await users.setResetToken('alice@example.test', DOMAIN, 'old', new Date(Date.now() - 1000));
    expect(await users.resetPassword('old', 'x')).toBeNull();
    await users.setResetToken('alice@example.test', DOMAIN, 'rt3', soon);
    await users.setFields('@alice@users.test', { active: false });
    expect(await users.resetPassword('rt3', 'x')).toBeNull();
    await users.setFields('@alice@users.test', { active: true });
  });

  it('counters: 50 concurrent moves all count; a decrement never leaves one below zero', async () => {
    const id = '@nomail1@users.test';
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? users.bumpCounter(id, 'postCount', 1)
          : users.bumpCounters(id, { postCount: 1, replyCount: 1 }),
      ),
    );
    expect(await users.findById(id)).toMatchObject({ postCount: 50, replyCount: 25 });
    await Promise.all(Array.from({ length: 30 }, () => users.bumpCounters(id, { replyCount: -1 })));
    expect((await users.findById(id))?.replyCount).toBe(0);
  });

  it('deactivate, reactivate and restoreAccount: exactly one of concurrent callers wins', async () => {
    const id = '@nomail2@users.test';
    changed.length = 0;
    const deletes = await Promise.all(
      Array.from({ length: 5 }, () => users.deactivate(id, '@admin@users.test')),
    );
    expect(deletes.filter(Boolean)).toHaveLength(1);
    expect(changed).toEqual([id]);
    expect(await users.findActiveById(id)).toBeNull();
    expect(await users.count()).toBe((await users.pageForAdmin({}, page)).total);
    const restores = await Promise.all(Array.from({ length: 5 }, () => users.restoreAccount(id)));
    expect(restores.filter((r) => r?.restored)).toHaveLength(1);
    expect(await users.findActiveById(id)).toMatchObject({ active: true, deletedAt: null });
    await users.deactivate(id);
    expect(await users.reactivate(id)).toMatchObject({ active: true, deletedAt: null });
    expect(await users.reactivate(id)).toBeNull();
    expect(await users.restoreAccount('@nobody@users.test')).toBeNull();
  });

  it('admin and member lists: every filter, newest first, totals', async () => {
    await create('gone');
    expect(await users.deactivate('@gone@users.test')).not.toBeNull();
    await users.create({ id: '@zed@remote.test', username: 'zed', domain: 'remote.test', password: '' });
    await users.setFields('@nomail1@users.test', { active: false });
    const ids = async (f: Parameters<UsersStore['pageForAdmin']>[0]) => {
      const found = await users.pageForAdmin(f, page);
      expect(found.items).toHaveLength(found.total);
      const times = found.items.map((u) => u.createdAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => b - a)); // newest first
      return found.items.map((u) => u.id);
    };
    const all = await ids({ deleted: 'include' });
    expect(all).toHaveLength(7); // alice, bob, one of mail0..4, nomail1, nomail2, gone, zed
    expect(await ids({ deleted: 'true' })).toEqual(all.filter((id) => id === '@gone@users.test'));
    expect(await ids({ active: false })).toEqual(['@nomail1@users.test']);
    expect(await ids({ deleted: 'true', active: false })).toEqual(['@gone@users.test']);
    expect(await ids({ deleted: 'include', active: true })).not.toContain('@nomail1@users.test');
    const members = (await users.pageLocalMembers(page)).items.map((u) => u.id);
    expect(members).not.toContain('@zed@remote.test');
    expect(members).not.toContain('@nomail1@users.test');
    expect(members).not.toContain('@gone@users.test');
    expect(members).toContain('@alice@users.test');
    const live = [];
    for await (const u of users.allLive(2)) live.push(u);
    expect(live.map((u) => u.id).sort()).toEqual(all.filter((id) => id !== '@gone@users.test').sort());
    expect(JSON.stringify(live)).not.toMatch(SECRETS);
  });

  it('snapshot and reinstate keep an admin able to log in across a restore', async () => {
    const snap = (await users.snapshot('@alice@users.test'))!;
    expect(snap.password).toBe('new-hash');
    expect(await users.reinstate(snap)).toBe('unchanged');
    await users.deactivate('@alice@users.test');
    expect(await users.reinstate(snap)).toBe('reactivated');
    expect(await users.findActiveById('@alice@users.test')).not.toBeNull();
    expect(await users.remove('@alice@users.test')).toBe(true);
    expect(await users.reinstate(snap)).toBe('reinserted');
    expect((await users.findForLogin({ username: 'alice' }, DOMAIN))?.password).toBe('new-hash');
  });
  it('a suspension (ADR 0028): marked on the record, listed among the suspended ids, lifted by the restore', async () => {
    await create('sid');
    await create('otto');
    await create('remy', { domain: 'elsewhere.test', id: '@remy@elsewhere.test' });
    expect(await users.suspendedIds()).not.toContain('@sid@users.test');
    expect(
      await users.deactivate('@sid@users.test', '@root@users.test', { suspension: true }),
    ).not.toBeNull();
    expect(await users.deactivate('@otto@users.test', '@otto@users.test')).not.toBeNull();
    await users.deactivate('@remy@elsewhere.test');
    expect(await users.findById('@sid@users.test')).toMatchObject({ active: false, suspended: true });
    // Only this server's inactive accounts; an owner's own delete counts as inactive but is no suspension.
    const ids = await users.suspendedIds();
    expect(ids).toEqual(expect.arrayContaining(['@sid@users.test', '@otto@users.test']));
    expect(ids).not.toContain('@remy@elsewhere.test');
    expect((await users.findById('@otto@users.test'))?.suspended).toBeUndefined();
    expect(await users.restoreAccount('@sid@users.test')).toMatchObject({ restored: true });
    const back = await users.findById('@sid@users.test');
    expect(back).toMatchObject({ active: true, deletedAt: null });
    expect(back?.suspended).toBeUndefined();
    expect(await users.suspendedIds()).not.toContain('@sid@users.test');
  });
});
