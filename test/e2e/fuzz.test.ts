/**
 * Every route answers malformed input with a 4xx, never a 5xx, and the server stays up
 * (quality-bars.md, Security: "fuzz every route"). The routes come from GET /__routes, so a new
 * route is fuzzed without touching this file. Each route is called as an anonymous caller, a
 * user and the admin, with hostile path parameters, query strings and bodies: malformed JSON,
 * wrong types, huge strings, deep nesting and MongoDB operators.
 */
import { bootServer, client, ADMIN, type TestServer } from '../harness/standalone';
import { registerActor } from '../harness/actors';

let server: TestServer;
let tokens: Array<[string, string | undefined]>;

/** The body as text; an event stream (the live stream: it never ends) is closed after its headers. */
async function bodyOf(res: Response): Promise<string> {
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return res.text();
  await res.body?.cancel();
  return '';
}

const deep = (n: number): unknown => (n === 0 ? 'bottom' : { a: deep(n - 1) });
const HUGE = 'x'.repeat(200_000);

const PARAMS = [
  'x',
  '$ne',
  '%24where',
  'post:000000000000000000000000@social.test',
  'circle:zz@elsewhere.example',
  '@nobody@social.test',
  '..%2F..%2Fetc%2Fpasswd',
  '%F0%9F%92%A5%00',
  'y'.repeat(3000),
];

const QUERIES = [
  '',
  '?limit=-1&page=abc&before=not-a-date&sort=zzz',
  '?limit[$gt]=0&page[$ne]=1&types[$ne]=x&q[$where]=1',
  '?limit=1e309&page=99999999999999999999&types=,,,,&mode=remote',
  `?q=${'z'.repeat(5000)}&id=%00&domain=127.0.0.1`,
  '?limit=2&limit=3&page[]=1&before[]=2020-01-01',
];

const BODIES: Array<{ raw: string; type?: string }> = [
  { raw: '{"a":' },
  { raw: 'null' },
  { raw: '[]' },
  { raw: '"just a string"' },
  { raw: '12345' },
  { raw: JSON.stringify({ type: { $ne: null }, to: { $gt: '' }, object: { $where: 'sleep(1)' } }) },
  {
    raw: JSON.stringify({
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: { $ne: null }, type: ['Note'] },
    }),
  },
  { raw: JSON.stringify({ type: 'Update', target: { $regex: '.*' }, object: { $set: { isAdmin: true } } }) },
  { raw: JSON.stringify({ username: ['a'], password: { $ne: '' }, email: 42, lastSeenAt: {} }) },
  { raw: JSON.stringify(deep(300)) },
  { raw: JSON.stringify({ type: 'Create', objectType: 'Post', object: { content: HUGE } }) },
  { raw: JSON.stringify({ settings: deep(50), value: [[[[[]]]]], name: '__proto__' }) },
  { raw: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}' },
  {
    raw: JSON.stringify({
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'a\u0000b' },
    }),
  },
  { raw: 'a=1&b[$ne]=2&c=%00', type: 'application/x-www-form-urlencoded' },
  { raw: '<xml/>', type: 'text/plain' },
];

function fill(path: string, value: string): string {
  return path.replace(/:[A-Za-z]+\??/g, value);
}

beforeAll(async () => {
  server = await bootServer({ RATE_LIMITING_ENABLED: 'false' });
  const api = client(server.url);
  const user = await registerActor(api, 'fuzzer');
  const admin = await api.post<{ token: string }>('/auth/login', ADMIN);
  tokens = [
    ['anonymous', undefined],
    ['user', user.token],
    ['admin', admin.body.token],
  ];
});
afterAll(async () => {
  await server?.close();
});

test('no route answers hostile input with a 5xx, and the server stays healthy', async () => {
  const routes = (
    (await (await fetch(`${server.url}/__routes`)).json()) as {
      routes: Array<{ methods: string[]; path: string }>;
    }
  ).routes;
  expect(routes.length).toBeGreaterThan(50);
  const failures: string[] = [];
  let sent = 0;
  const send = async (
    method: string,
    path: string,
    token: string | undefined,
    body?: (typeof BODIES)[number],
  ) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body) headers['content-type'] = body.type ?? 'application/json';
    const res = await fetch(`${server.url}${path}`, { method, headers, ...(body ? { body: body.raw } : {}) });
    const text = await bodyOf(res);
    sent++;
    if (res.status >= 500 || /\bat [\w.<>]+ \(|node_modules/.test(text))
      failures.push(
        `${method} ${path.slice(0, 120)} as ${token ? 'signed-in' : 'anonymous'}${body ? ` body ${body.raw.slice(0, 80)}` : ''} → ${res.status} ${text.slice(0, 200)}`,
      );
  };
  for (const route of routes) {
    for (const method of route.methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const hasBody = !['GET', 'DELETE'].includes(method);
      for (const [, token] of tokens) {
        for (const [i, param] of PARAMS.entries()) {
          const path = fill(route.path, param) + QUERIES[i % QUERIES.length]!;
          await send(method, path, token, hasBody ? BODIES[i % BODIES.length] : undefined);
        }
        if (hasBody) for (const body of BODIES) await send(method, fill(route.path, PARAMS[0]!), token, body);
        else for (const q of QUERIES) await send(method, fill(route.path, PARAMS[3]!) + q, token);
      }
    }
  }
  expect(sent).toBeGreaterThan(1000);
  expect(failures).toEqual([]);
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  // Nothing reached Object.prototype.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}, 600_000);

/**
 * One canonical path (docs/security.md): every other spelling of a route (upper case, a trailing
 * slash, doubled slashes) answers exactly like the canonical path or is a 404; none reaches a
 * route the canonical spelling would not (edge rules see the canonical path only).
 */
test('every route answers its other spellings like the canonical path, or 404', async () => {
  const routes = (
    (await (await fetch(`${server.url}/__routes`)).json()) as {
      routes: Array<{ methods: string[]; path: string }>;
    }
  ).routes;
  const [, token] = tokens[1]!;
  const status = async (method: string, path: string, withBody: boolean) => {
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token!}` };
    if (withBody) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}${path}`, { method, headers, ...(withBody ? { body: '{}' } : {}) });
    await bodyOf(res);
    return res.status;
  };
  const spellings = (path: string) => [
    ['upper case', path.toUpperCase()],
    ['trailing slash', `${path}/`],
    ['doubled slashes', path.replace(/\//g, '//')],
  ];
  const mismatches: string[] = [];
  let compared = 0;
  for (const route of routes) {
    for (const method of route.methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const withBody = !['GET', 'DELETE'].includes(method);
      const path = fill(route.path, route.path.includes('posts') ? PARAMS[3]! : PARAMS[0]!);
      const canonical = await status(method, path, withBody);
      for (const [how, spelled] of spellings(path)) {
        const got = await status(method, spelled!, withBody);
        compared++;
        if (got !== canonical && got !== 404)
          mismatches.push(`${method} ${spelled} (${how}) → ${got}; ${path} → ${canonical}`);
      }
    }
  }
  expect(compared).toBeGreaterThan(150);
  expect(mismatches).toEqual([]);
}, 300_000);

test('a NUL character is refused with 400; the text of an escaped one is kept', async () => {
  const api = client(server.url);
  const [, token] = tokens[1]!;
  const post = (content: string) =>
    api.post(
      '/outbox',
      { type: 'Create', objectType: 'Post', to: '@public', object: { content } },
      { token: token! },
    );
  const nul = await post('before\u0000after');
  expect(nul.status).toBe(400);
  expect(nul.body.error).toBe('NUL characters are not allowed');
  expect((await api.get('/users/%00', { token: token! })).status).toBe(400);
  const text = await post('a backslash-u sequence: \\u0000 stays text');
  expect(text.status).toBe(201);
  expect(JSON.stringify(text.body)).toContain('\\\\u0000 stays text');
});
