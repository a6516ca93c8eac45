/**
 * GET /openapi.json (issue 25, item 5): the gateway's merged OpenAPI 3.1 document is valid
 * OpenAPI 3.1 (@readme/openapi-parser), lists exactly the routes GET /__routes lists (every
 * method, nothing more), and the response bodies it describes are what the server sends: real
 * answers are parsed with the schemas the document was generated from. GET /openapi is the
 * viewer, served from the gateway with its script (no CDN).
 */
import { validate } from '@readme/openapi-parser';
import type { z } from 'zod';
import { collectionOf, NOT_DESCRIBED, wire, wireAdmin, type OpenApiDocument } from '@agora/common/openapi';
import { documentedKeys, fetchDocument, listedKeys } from '../harness/openapi';
import { registerActor, outbox, type Actor } from '../harness/actors';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';

let server: TestServer;
let doc: OpenApiDocument;

beforeAll(async () => {
  server = await bootServer();
  doc = await fetchDocument(server.url);
});
afterAll(() => server?.close());

test('the document is valid OpenAPI 3.1', async () => {
  expect(doc.openapi).toBe('3.1.0');
  const result = await validate(structuredClone(doc) as never);
  expect(result).toMatchObject({ valid: true, specification: 'OpenAPI' });
});

test('every route of GET /__routes is in the document with its method, and nothing else is', async () => {
  const listed = await listedKeys(server.url);
  expect(listed.length).toBeGreaterThan(100);
  expect(documentedKeys(doc)).toEqual(listed);
  // Every path parameter is declared, and operation ids are unique.
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const op of Object.values(item)) {
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
      expect(ids.has(op.operationId)).toBe(false);
      ids.add(op.operationId);
    }
});

test('schemas come from the routes: a zod-validated body and query, an undescribed body said so', () => {
  const create = doc.paths['/admin/invites']!.post!;
  const body = (create.requestBody as { content: Record<string, { schema: { properties: object } }> })
    .content['application/json']!.schema;
  expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['type', 'email', 'maxRedemptions']));
  expect(Object.keys(create.responses)).toContain('201');
  const list = doc.paths['/admin/flagged']!.get!;
  expect(list.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['status']));
  const ok = (doc.paths['/search']!.get!.responses['200'] as { content: Record<string, { schema: object }> })
    .content['application/json']!.schema;
  expect(ok).toEqual({ type: 'object', description: NOT_DESCRIBED });
  expect(doc.components.schemas.Post?.type).toBe('object');
  expect(doc.components.schemas.Post?.required).toContain('id');
});

test('the described response bodies are what the server sends', async () => {
  const api = client(server.url);
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  const admin = { token: login.body.token };
  const alice: Actor = await registerActor(api, 'openapi_alice');
  const me = await api.get<{ user: { following: string } }>('/auth/me', { token: alice.token });
  const post = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'described' },
  });
  expect(post.status).toBe(201);
  const checks: Array<[string, z.ZodType, { token: string } | undefined]> = [
    ['/config.json', wire.ServerConfig, undefined],
    ['/auth/me', wire.SessionUser, undefined],
    ['/posts', collectionOf(wire.Post), undefined],
    [`/posts/${encodeURIComponent(post.body.createdId!)}`, wire.Post, alice],
    [`/users/${encodeURIComponent(alice.id)}/circles`, collectionOf(wire.Circle), alice],
    [`/circles/${encodeURIComponent(me.body.user.following)}/posts`, collectionOf(wire.Post), alice],
    ['/notifications', collectionOf(wire.Notification), alice],
    ['/admin/system', wireAdmin.SystemStats, admin],
    ['/admin/users', collectionOf(wireAdmin.AdminUser), admin],
    ['/admin/invites', collectionOf(wireAdmin.Invite), admin],
  ];
  const problems: string[] = [];
  for (const [path, schema, who] of checks) {
    const res = await api.get(path, who ?? { token: alice.token });
    const target = path === '/auth/me' ? (res.body as { user: unknown }).user : res.body;
    const parsed = schema.safeParse(target);
    if (res.status !== 200 || !parsed.success)
      problems.push(`${path}: ${res.status} ${parsed.error?.message ?? ''}`);
  }
  expect(problems).toEqual([]);
});

test('GET /openapi is a viewer of the document, served without any other origin', async () => {
  const page = await fetch(`${server.url}/openapi`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  const html = await page.text();
  expect(html).toContain('src="/openapi/viewer.js"');
  expect(html).not.toMatch(/https?:\/\//);
  const script = await fetch(`${server.url}/openapi/viewer.js`);
  expect(script.status).toBe(200);
  expect(await script.text()).toContain("fetch('/openapi.json'");
});
