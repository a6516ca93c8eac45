/**
 * What the public JavaScript client library (jzellis/kowloon-client) expects where the spec is
 * silent: the server profile at GET / and GET /profile (browsers still get the web app), the
 * token's `user` claim decoded the way the client decodes it to restore a session, /auth/me with
 * isServerAdmin and the system circle ids, `{ user, token }` from login and register, and outbox
 * results `{ ok, activity, result, createdId }` with `result.id`.
 */
import { outbox } from '../harness/actors';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';

let server: TestServer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await bootServer();
  api = client(server.url);
});
afterAll(async () => {
  await server?.close();
});

/** The client's `_decodeToken`: base64url payload, no verification. */
function decodeAsClient(token: string): Record<string, unknown> {
  const parts = token.split('.');
  expect(parts).toHaveLength(3);
  let b64 = parts[1]!.replace(/-/g, '+').replace(/_/g, '/');
  while (b64.length % 4) b64 += '=';
  return JSON.parse(Buffer.from(b64, 'base64').toString('utf8')) as Record<string, unknown>;
}

interface Profile {
  type: string;
  name: string;
  domain: string;
  registrationIsOpen: boolean;
  endpoints: Record<string, string>;
  settings: Record<string, unknown>;
}

describe('server profile', () => {
  test('GET / answers a JSON client with the public description and every public setting', async () => {
    const res = await api.get<Profile>('/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'Service',
      domain: 'social.test',
      registrationIsOpen: true,
      endpoints: { users: '/users', posts: '/posts', outbox: '/outbox', inbox: '/inbox' },
    });
    expect(typeof res.body.name).toBe('string');
    expect(res.body).toHaveProperty('subtitle');
    expect(res.body).toHaveProperty('description');
    expect(res.body).toHaveProperty('icon');
    expect(res.body).toHaveProperty('image');
    const names = Object.keys(res.body.settings);
    expect(names).toEqual(
      expect.arrayContaining(['reactEmojis', 'profile', 'registrationIsOpen', 'rules', 'flagOptions']),
    );
    for (const secret of [
      'privateKey',
      'publicKey',
      'actorId',
      'adminEmail',
      'adminCircle',
      'modCircle',
      'requireEmailVerification',
    ])
      expect(names).not.toContain(secret);
    expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');
    expect((await api.get<Profile>('/profile')).body).toEqual(res.body);
  });

  test('a setting an admin changes shows at once; a private one never does', async () => {
    const admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
    expect(
      (
        await api.call('PATCH', '/admin/settings/registrationIsOpen', {
          token: admin,
          body: { value: false },
        })
      ).status,
    ).toBe(200);
    const res = await api.get<Profile>('/');
    expect(res.body.registrationIsOpen).toBe(false);
    expect(res.body.settings.registrationIsOpen).toBe(false);
    await api.call('PATCH', '/admin/settings/registrationIsOpen', { token: admin, body: { value: true } });
  });

  test('browser navigations to / and /profile get the web app', async () => {
    for (const path of ['/', '/profile']) {
      const res = await fetch(`${server.url}${path}`, {
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('<html');
    }
  });

  test('/__routes lists the new public and admin routes', async () => {
    const res = await api.get<{ routes: Array<{ methods: string[]; path: string }> }>('/__routes');
    const keys = res.body.routes.map((r) => `${r.methods.join()} ${r.path}`);
    const expected = ['GET /', 'GET /profile', 'GET /recommendations'];
    for (const g of ['posts', 'circles', 'groups', 'pages', 'sections', 'recommendations'])
      expected.push(
        `GET /admin/${g}`,
        `GET /admin/${g}/:id`,
        `POST /admin/${g}`,
        `PATCH /admin/${g}/:id`,
        `DELETE /admin/${g}/:id`,
        `POST /admin/${g}/:id/restore`,
      );
    expect(keys).toEqual(expect.arrayContaining(expected));
  });
});

describe('session restore as the client library does it', () => {
  test('register and login answer { user, token }; the token carries a public user claim', async () => {
    const reg = await api.post<{ user: { id: string; following: string }; token: string }>('/register', {
      username: 'client_carol',
      password: 'password123',
      profile: { name: 'Carol C' },
    });
    expect(reg.status).toBe(201);
    expect(reg.body.user.id).toBe('@client_carol@social.test');
    const claimAtRegister = decodeAsClient(reg.body.token).user as Record<string, unknown>;
    expect(claimAtRegister).toEqual({
      id: '@client_carol@social.test',
      username: 'client_carol',
      name: 'Carol C',
      following: reg.body.user.following,
    });

    const login = await api.post<{ user: Record<string, unknown>; token: string }>('/auth/login', {
      username: 'client_carol',
      password: 'password123',
    });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['token', 'user']);
    const payload = decodeAsClient(login.body.token);
    const claim = payload.user as Record<string, unknown>;
    // restoreSession(): a user claim with an id keeps the session.
    expect(claim.id).toBe('@client_carol@social.test');
    expect(claim.username).toBe('client_carol');
    expect(payload.sub).toBe('@client_carol@social.test');
    const raw = JSON.stringify(payload);
    for (const secret of ['password', 'email', 'privateKey', 'prefs', '$2'])
      expect(raw).not.toContain(secret);

    // …then refreshes profile and prefs from /auth/me.
    const me = await api.get<{ user: Record<string, unknown> }>('/auth/me', { token: login.body.token });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({
      id: claim.id,
      isServerAdmin: false,
      following: claim.following,
      profile: { name: 'Carol C' },
    });
    for (const circle of ['following', 'blocked', 'muted', 'groups'])
      expect(String(me.body.user[circle])).toMatch(/^circle:/);
    expect(me.body.user).toHaveProperty('prefs');

    // follow() posts Add to the Following circle taken from the restored claim.
    const token = login.body.token;
    const add = await outbox(
      api,
      { id: String(claim.id), username: 'client_carol', token },
      {
        type: 'Add',
        object: `@${ADMIN.username}@social.test`,
        target: claim.following,
      },
    );
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ ok: true, createdId: claim.following, result: { id: claim.following } });
    expect(add.body.activity).toMatchObject({ type: 'Add' });
  });

  test('an admin session says so', async () => {
    const login = await api.post<{ user: { isServerAdmin: boolean }; token: string }>('/auth/login', ADMIN);
    expect(login.body.user.isServerAdmin).toBe(true);
    const me = await api.get<{ user: { isServerAdmin: boolean } }>('/auth/me', { token: login.body.token });
    expect(me.body.user.isServerAdmin).toBe(true);
    expect(decodeAsClient(login.body.token).user).toMatchObject({ username: ADMIN.username });
  });
});
