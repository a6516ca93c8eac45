/**
 * /admin/settings: guard, redaction, all-or-nothing bulk update, unknown names, value types,
 * and the write transforms of `rules` and `profile.description`.
 */
import { registerActor, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let member: Actor;

interface SettingView {
  name: string;
  value: unknown;
  to: string;
  canEdit: string;
  ui: { type?: string };
}

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  admin = login.body.token;
  member = await registerActor(api, 'settings_member');
});
afterAll(async () => {
  await server?.close();
});

const patch = (path: string, body: unknown, token = admin) => api.call('PATCH', path, { body, token });

async function settings(): Promise<Map<string, SettingView>> {
  const res = await api.get<{ settings: SettingView[]; total: number }>('/admin/settings', { token: admin });
  expect(res.status).toBe(200);
  expect(res.body.total).toBe(res.body.settings.length);
  return new Map(res.body.settings.map((s) => [s.name, s]));
}

describe('guard', () => {
  test('anonymous → 401, non-admin → 403 on every route', async () => {
    for (const [method, path] of [
      ['GET', '/admin/settings'],
      ['PATCH', '/admin/settings'],
      ['PATCH', '/admin/settings/registrationIsOpen'],
    ] as const) {
      const body = method === 'PATCH' ? { value: false, registrationIsOpen: false } : undefined;
      expect((await api.call(method, path, { body })).status).toBe(401);
      expect((await api.call(method, path, { body, token: member.token })).status).toBe(403);
    }
    expect((await settings()).get('registrationIsOpen')!.value).toBe(true);
  });
});

describe('GET /admin/settings', () => {
  test('lists every setting and never returns private values', async () => {
    const res = await api.get<{ settings: SettingView[] }>('/admin/settings', { token: admin });
    const all = new Map(res.body.settings.map((s) => [s.name, s]));
    expect(all.get('privateKey')!.value).toBe('[redacted]');
    expect(all.get('rules')!.value).toEqual([]);
    expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');
    expect(all.get('publicKey')!.value).toEqual(expect.stringContaining('PUBLIC KEY'));
    expect(all.get('registrationIsOpen')).toMatchObject({
      value: true,
      canEdit: '@admin',
      ui: { type: 'boolean' },
    });
    expect(Object.keys(all.get('rules')!).sort()).toEqual(
      expect.arrayContaining(['name', 'value', 'summary', 'to', 'canEdit', 'ui']),
    );
    expect(res.body.settings.every((s) => !('_id' in s))).toBe(true);
  });
});

describe('PATCH /admin/settings (bulk)', () => {
  test('a blocked key fails the whole request and changes nothing', async () => {
    const res = await patch('/admin/settings', {
      registrationIsOpen: false,
      privateKey: 'stolen',
      adminCircle: 'x',
    });
    expect(res.status).toBe(403);
    expect((res.body.blocked as string[]).sort()).toEqual(['adminCircle', 'privateKey']);
    expect(String(res.body.error)).toContain('privateKey');
    const after = await settings();
    expect(after.get('registrationIsOpen')!.value).toBe(true);
  });

  test('unknown names → 400 naming them, nothing written, nothing created', async () => {
    const res = await patch('/admin/settings', { registrationIsOpen: false, madeUp: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('madeUp');
    const after = await settings();
    expect(after.has('madeUp')).toBe(false);
    expect(after.get('registrationIsOpen')!.value).toBe(true);
  });

  test('value types are checked against ui.type', async () => {
    for (const body of [{ registrationIsOpen: 'yes' }, { maxUploadSize: '10' }, { flagOptions: 'nope' }]) {
      const res = await patch('/admin/settings', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(Object.keys(body)[0]);
    }
    expect((await patch('/admin/settings', [1, 2])).status).toBe(400);
    expect((await patch('/admin/settings', {})).status).toBe(400);
    expect((await patch('/admin/settings', { $where: true })).status).toBe(400);
  });

  test('a JSON value holding a key that starts with $ is refused, naming it, and nothing changes', async () => {
    const before = (await settings()).get('profile')!.value;
    const res = await patch('/admin/settings', {
      profile: { name: 'x', links: [{ $numberLong: '12' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('profile');
    expect(res.body.error).toContain('links.0.$numberLong');
    expect((await settings()).get('profile')!.value).toEqual(before);
  });

  test('updates several settings at once', async () => {
    const res = await patch('/admin/settings', { maxUploadSize: 50, gcRetentionDays: 7 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, updated: ['maxUploadSize', 'gcRetentionDays'] });
    const after = await settings();
    expect(after.get('maxUploadSize')!.value).toBe(50);
    expect(after.get('gcRetentionDays')!.value).toBe(7);
  });

  test('rules are normalised: trimmed, ids kept or minted, html rendered and sanitised', async () => {
    const res = await patch('/admin/settings', {
      rules: [
        { id: 'be-kind', text: '  Be **kind**  ' },
        { text: 'No <script>alert(1)</script> [spam](javascript:alert(1))' },
        'Plain string rule',
      ],
    });
    expect(res.status).toBe(200);
    const rules = (await settings()).get('rules')!.value as Array<{ id: string; text: string; html: string }>;
    expect(rules).toHaveLength(3);
    expect(rules[0]).toEqual({ id: 'be-kind', text: 'Be **kind**', html: '<p>Be <strong>kind</strong></p>' });
    expect(rules[1]!.id).toMatch(/^[A-Za-z0-9_-]{4,}$/);
    expect(rules[1]!.html).not.toContain('<script');
    expect(rules[1]!.html).not.toContain('javascript:');
    expect(rules[2]!.text).toBe('Plain string rule');
    expect(new Set(rules.map((r) => r.id)).size).toBe(3);
  });

  test('rules without text are dropped, not refused; wrong types → 400 and nothing written', async () => {
    const res = await patch('/admin/settings', {
      rules: [
        { id: 'a', text: 'ok' },
        { id: 'b', text: '   ' },
        { id: 'c' },
        '',
        { id: 'a', text: 'a second rule with a taken id' },
      ],
    });
    expect(res.status).toBe(200);
    const rules = (await settings()).get('rules')!.value as Array<{ id: string; text: string; html: string }>;
    expect(rules.map((r) => r.text)).toEqual(['ok', 'a second rule with a taken id']);
    expect(rules[0]!.id).toBe('a');
    expect(rules[1]!.id).not.toBe('a');
    expect(rules[0]!.html).toBe('<p>ok</p>');

    const wrongList = await patch('/admin/settings', { rules: 'not a list' });
    expect(wrongList.status).toBe(400);
    expect(wrongList.body.error).toContain('rules');
    const wrongText = await patch('/admin/settings', { rules: [{ id: 'z', text: 5 }] });
    expect(wrongText.status).toBe(400);
    expect(wrongText.body.error).toContain('rules.0');
    expect(((await settings()).get('rules')!.value as Array<{ id: string }>).map((r) => r.id)).toEqual(
      rules.map((r) => r.id),
    );
  });
});

describe('GET /admin/settings/:name', () => {
  test('one setting, redacted like the list; 404 for unknown, 400 for a bad name', async () => {
    const one = await api.get<{ setting: { name: string; value: unknown } }>('/admin/settings/reactEmojis', {
      token: admin,
    });
    expect(one.status).toBe(200);
    expect(one.body.setting.name).toBe('reactEmojis');
    expect(Array.isArray(one.body.setting.value)).toBe(true);
    const secret = await api.get<{ setting: { value: unknown } }>('/admin/settings/privateKey', {
      token: admin,
    });
    expect(secret.body.setting.value).toBe('[redacted]');
    expect((await api.get('/admin/settings/noSuchSetting', { token: admin })).status).toBe(404);
    expect((await api.get('/admin/settings/%24where', { token: admin })).status).toBe(400);
  });
});

describe('PATCH /admin/settings/:name', () => {
  test('single update, 403 for read-only, 404 for unknown, 400 without value', async () => {
    const ok = await patch('/admin/settings/registrationIsOpen', { value: false });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, setting: { name: 'registrationIsOpen', value: false } });
    expect((await settings()).get('registrationIsOpen')!.value).toBe(false);
    await patch('/admin/settings/registrationIsOpen', { value: true });

    const blocked = await patch('/admin/settings/publicKey', { value: 'mine' });
    expect(blocked.status).toBe(403);
    expect(blocked.body.blocked).toEqual(['publicKey']);
    expect((await settings()).get('publicKey')!.value).toEqual(expect.stringContaining('PUBLIC KEY'));
    expect((await patch('/admin/settings/privateKey', { value: 'x' })).status).toBe(403);
    expect((await patch('/admin/settings/nope', { value: 1 })).status).toBe(404);
    expect((await patch('/admin/settings/maxUploadSize', {})).status).toBe(400);
    expect((await patch('/admin/settings/maxUploadSize', { value: { $gt: 1 } })).status).toBe(400);
  });

  test('the profile description is HTML-sanitised on write', async () => {
    const profile = (await settings()).get('profile')!.value as Record<string, unknown>;
    const res = await patch('/admin/settings/profile', {
      value: {
        ...profile,
        description: '<p>Hello <b>there</b><script>alert(1)</script><img src=x onerror=alert(1)></p>',
      },
    });
    expect(res.status).toBe(200);
    const stored = (await settings()).get('profile')!.value as Record<string, unknown>;
    expect(stored.description).not.toContain('<script');
    expect(stored.description).not.toContain('onerror');
    expect(stored.description).toContain('Hello');
    expect(stored.name).toBe(profile.name);
    expect((await patch('/admin/settings/profile', { value: { ...profile, description: 5 } })).status).toBe(
      400,
    );
  });
});
