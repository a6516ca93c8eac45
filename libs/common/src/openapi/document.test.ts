import { validate } from '@readme/openapi-parser';
import { z } from 'zod';
import { mergeDocuments, NOT_DESCRIBED, openApiPath, serviceDocument } from './document';
import { collectionOf } from './collections';
import { Post } from './wire';

const routes = [
  { methods: ['GET'], path: '/things' },
  { methods: ['POST'], path: '/things' },
  { methods: ['GET'], path: '/things/:id/parts/:partId' },
];

test('every route is an operation; path parameters declared; zod query, body and response converted', async () => {
  const doc = serviceDocument('t', routes, {
    'GET /things': {
      query: z.object({ q: z.string().max(10), n: z.string().optional() }),
      response: collectionOf(Post),
    },
    'POST /things': { body: z.object({ name: z.string().min(1) }), status: 201 },
  });
  expect(Object.keys(doc.paths)).toEqual(['/things', '/things/{id}/parts/{partId}']);
  const list = doc.paths['/things']!.get!;
  expect(list.parameters).toEqual([
    { name: 'q', in: 'query', required: true, schema: { type: 'string', maxLength: 10 } },
    { name: 'n', in: 'query', required: false, schema: { type: 'string' } },
  ]);
  expect(JSON.stringify(list.responses['200'])).toContain('"$ref":"#/components/schemas/Post"');
  expect(doc.components.schemas.Author).toBeDefined();
  const create = doc.paths['/things']!.post!;
  expect(Object.keys(create.responses)).toEqual(['201', 'default']);
  expect(JSON.stringify(create.requestBody)).toContain('"minLength":1');
  const part = doc.paths['/things/{id}/parts/{partId}']!.get!;
  expect(part.parameters!.map((p) => [p.name, p.in, p.required])).toEqual([
    ['id', 'path', true],
    ['partId', 'path', true],
  ]);
  expect(JSON.stringify(part.responses['200'])).toContain(NOT_DESCRIBED);
  expect(await validate(structuredClone(doc) as never)).toMatchObject({ valid: true });
});

test('a RouteDoc for a route that is not mounted is an error', () => {
  expect(() => serviceDocument('t', routes, { 'DELETE /things': {} })).toThrow(
    'documented routes that are not mounted: DELETE /things',
  );
});

test('merged documents keep every path and method; the validator refuses a broken document', async () => {
  const a = serviceDocument('a', [{ methods: ['GET'], path: '/x' }]);
  const b = serviceDocument('b', [
    { methods: ['POST'], path: '/x' },
    { methods: ['GET'], path: '/y' },
  ]);
  const merged = mergeDocuments('m', [a, b]);
  expect(Object.keys(merged.paths['/x']!)).toEqual(['get', 'post']);
  expect(Object.keys(merged.paths)).toEqual(['/x', '/y']);
  const broken = structuredClone(merged) as unknown as { paths: Record<string, Record<string, object>> };
  (broken.paths['/y']!.get as { parameters?: unknown }).parameters = [{ name: 'q' }]; // no `in`
  expect((await validate(broken as never)).valid).toBe(false);
  expect(openApiPath('/a/:b/c/:d_e')).toBe('/a/{b}/c/{d_e}');
});
