/**
 * Invites: admin CRUD (/admin/invites), the public check (GET /invites/:code) and redemption
 * inside invite-only registration (behaviour-notes §2.4, §3.1, §3.2).
 */
import { registerActor, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, waitFor, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let member: Actor;
const redeemed: unknown[] = [];

interface InviteView {
  id: string;
  type: string;
  code: string;
  url: string;
  email?: string;
  note?: string;
  active: boolean;
  maxRedemptions: number | null;
  redemptionCount: number;
  redemptions: Array<{ userId: string; email?: string | null }>;
}

const patch = (path: string, body: unknown) => api.call('PATCH', path, { body, token: admin });
const createInvite = (body: unknown, token = admin) =>
  api.post<{ invite: InviteView; error?: string }>('/admin/invites', body, { token });
const register = (username: string, extra: Record<string, unknown> = {}) =>
  api.post<{ user?: { id: string }; error?: string; valid?: boolean }>('/register', {
    username,
    password: 'password123',
    ...extra,
  });

async function setOpen(open: boolean): Promise<void> {
  // Served by the admin service; the social service sees it on its next read (settings stamp).
  expect((await patch('/admin/settings', { registrationIsOpen: open })).status).toBe(200);
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  member = await registerActor(api, 'invite_member');
  await server.services[0]!.runtime!.bus.subscribe<unknown>('test.invites', ['invite.redeemed'], (m) => {
    redeemed.push(m.payload);
    return Promise.resolve();
  });
  await setOpen(false);
});
afterAll(async () => {
  await server?.close();
});

describe('/admin/invites', () => {
  test('guard: anonymous 401, non-admin 403', async () => {
    expect((await api.post('/admin/invites', { type: 'open' })).status).toBe(401);
    expect((await createInvite({ type: 'open' }, member.token)).status).toBe(403);
    expect((await api.get('/admin/invites', { token: member.token })).status).toBe(403);
  });

  test('validation: 400 naming the field', async () => {
    const noEmail = await createInvite({ type: 'individual' });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error).toContain('email');
    const badType = await createInvite({ type: 'group', email: 'a@b.test' });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toContain('type');
    const past = await createInvite({ type: 'open', expiresAt: '2000-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.error).toContain('expiresAt');
    const op = await createInvite({ type: 'open', note: { $ne: null } });
    expect(op.status).toBe(400);
    expect(op.body.error).toContain('note');
  });

  test('create, list newest first, detail, 404, deactivate keeps the row', async () => {
    const a = await createInvite({ type: 'open', note: 'first' });
    expect(a.status).toBe(201);
    expect(a.body.invite).toMatchObject({
      type: 'open',
      active: true,
      maxRedemptions: null,
      redemptionCount: 0,
    });
    expect(a.body.invite.code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(a.body.invite.url).toBe(`${server.config.publicUrl}/invite/${a.body.invite.code}`);
    expect(a.body.invite.id).toMatch(/^invite:[0-9a-f]{24}@social\.test$/);
    const b = await createInvite({ type: 'individual', email: 'Someone@Example.ORG' });
    expect(b.status).toBe(201);
    expect(b.body.invite).toMatchObject({ email: 'someone@example.org', maxRedemptions: 1 });

    const list = await api.get<{ orderedItems: InviteView[]; totalItems: number }>('/admin/invites', {
      token: admin,
    });
    expect(list.status).toBe(200);
    const ids = list.body.orderedItems.map((i) => i.id);
    expect(ids.indexOf(b.body.invite.id)).toBeLessThan(ids.indexOf(a.body.invite.id));
    expect(JSON.stringify(list.body)).not.toContain('"_id"');

    const one = await api.get<{ invite: InviteView }>(
      `/admin/invites/${encodeURIComponent(a.body.invite.id)}`,
      {
        token: admin,
      },
    );
    expect(one.body.invite.note).toBe('first');
    expect(
      (await api.get(`/admin/invites/${encodeURIComponent('invite:nope@social.test')}`, { token: admin }))
        .status,
    ).toBe(404);

    const del = await api.call<{ ok: boolean; invite: InviteView }>(
      'DELETE',
      `/admin/invites/${encodeURIComponent(a.body.invite.id)}`,
      { token: admin },
    );
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ ok: true, invite: { id: a.body.invite.id, active: false } });
    const after = await api.get<{ invite: InviteView }>(
      `/admin/invites/${encodeURIComponent(a.body.invite.id)}`,
      {
        token: admin,
      },
    );
    expect(after.body.invite.active).toBe(false);
    // A deactivated invite is unknown to the public and to registration.
    expect((await api.get(`/invites/${a.body.invite.code}`)).body).toEqual({ error: 'Invite not found' });
    expect((await register('inv_deact', { inviteCode: a.body.invite.code })).status).toBe(404);
  });
});

describe('invite-only registration', () => {
  test('individual invite: hint, 403 without code, 404 unknown, 403 wrong email, 201, then 410', async () => {
    const { invite } = (
      await createInvite({ type: 'individual', email: 'alice@mail.test', welcomeMessage: 'Hi' })
    ).body;
    const check = await api.get<Record<string, unknown>>(`/invites/${invite.code}`);
    expect(check.status).toBe(200);
    expect(check.body).toEqual({
      valid: true,
      invite: {
        type: 'individual',
        welcomeMessage: 'Hi',
        expiresAt: null,
        emailHint: '*****@mail.test',
        remainingRedemptions: 1,
      },
    });
    expect(JSON.stringify(check.body)).not.toContain('alice');

    expect((await register('inv_alice')).status).toBe(403);
    const unknown = await register('inv_alice', { inviteCode: 'AAAAAAAAAAAAAAAA', email: 'alice@mail.test' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Invalid invite code');
    const injected = await api.post('/register', {
      username: 'inv_alice',
      password: 'password123',
      inviteCode: { $ne: null },
    });
    expect(injected.status).toBe(400);
    const noEmail = await register('inv_alice', { inviteCode: invite.code });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error).toBe('Email is required for this invite');
    const wrong = await register('inv_alice', { inviteCode: invite.code, email: 'mallory@mail.test' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe('This invite is for a different email address');

    const ok = await register('inv_alice', { inviteCode: invite.code, email: 'Alice@Mail.test' });
    expect(ok.status).toBe(201);
    const stored = await api.get<{ invite: InviteView }>(`/admin/invites/${encodeURIComponent(invite.id)}`, {
      token: admin,
    });
    expect(stored.body.invite.redemptionCount).toBe(1);
    expect(stored.body.invite.redemptions.map((r) => r.userId)).toEqual([ok.body.user!.id]);
    await waitFor(async () => Promise.resolve(redeemed.length > 0), 5000);
    expect(redeemed).toContainEqual({
      inviteId: invite.id,
      userId: ok.body.user!.id,
      inviterId: '@root_admin@social.test',
    });

    const again = await register('inv_alice2', { inviteCode: invite.code, email: 'alice@mail.test' });
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ error: 'Invite has already been used', valid: false });
    expect((await api.get(`/invites/${invite.code}`)).status).toBe(410);
  });

  test('open invite with maxRedemptions 2: two registrations, the third 410', async () => {
    const { invite } = (await createInvite({ type: 'open', maxRedemptions: 2 })).body;
    expect(
      (await api.get<{ invite: { remainingRedemptions: number } }>(`/invites/${invite.code}`)).body.invite
        .remainingRedemptions,
    ).toBe(2);
    expect((await register('inv_open1', { inviteCode: invite.code })).status).toBe(201);
    expect((await register('inv_open2', { inviteCode: invite.code })).status).toBe(201);
    const third = await register('inv_open3', { inviteCode: invite.code });
    expect(third.status).toBe(410);
    expect(third.body.error).toBe('Invite has reached its redemption limit');
    const check = await api.get(`/invites/${invite.code}`);
    expect(check.body).toEqual({ error: 'Invite has reached its redemption limit', valid: false });
  });

  test('an expired invite answers 410 everywhere', async () => {
    const { invite } = (await createInvite({ type: 'open' })).body;
    await server.services[0]!.runtime!.repos.invites.set(invite.id, {
      expiresAt: new Date(Date.now() - 60_000),
    });
    expect((await api.get(`/invites/${invite.code}`)).body).toEqual({
      error: 'Invite has expired',
      valid: false,
    });
    const res = await register('inv_expired', { inviteCode: invite.code });
    expect(res.status).toBe(410);
    expect(res.body.error).toBe('Invite has expired');
  });

  test('a code given while registration is open is validated and redeemed', async () => {
    await setOpen(true);
    try {
      expect((await register('inv_open_bad', { inviteCode: 'BBBBBBBBBBBBBBBB' })).status).toBe(404);
      const { invite } = (await createInvite({ type: 'open', maxRedemptions: 1 })).body;
      expect((await register('inv_open_ok', { inviteCode: invite.code })).status).toBe(201);
      expect((await register('inv_open_no', { inviteCode: invite.code })).status).toBe(410);
      expect((await register('inv_open_plain')).status).toBe(201);
    } finally {
      await setOpen(false);
    }
  });
});

describe('GET /invites/:code', () => {
  test('unknown codes 404, and there is no public redeem route', async () => {
    expect((await api.get('/invites/ZZZZZZZZZZZZZZZZ')).status).toBe(404);
    expect((await api.get('/invites/%24ne')).status).toBe(404);
    const { invite } = (await createInvite({ type: 'open' })).body;
    const redeem = await api.post(`/invites/${invite.code}/redeem`, { userId: member.id });
    expect(redeem.status).toBe(404);
    const stored = await api.get<{ invite: InviteView }>(`/admin/invites/${encodeURIComponent(invite.id)}`, {
      token: admin,
    });
    expect(stored.body.invite.redemptionCount).toBe(0);
  });
});
