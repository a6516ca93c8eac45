/**
 * Builds the OpenAPI 3.1 document of a service from the routes it has mounted (the same list
 * as GET /__routes) and what its route modules say about them (RouteDocs). Every mounted
 * route is in the document; a RouteDoc naming a route that is not mounted is an error, so the
 * annotations cannot drift from the routes. The gateway merges the services' documents.
 */
import type { z } from 'zod';
import { toOpenApiSchema, type JsonSchema } from './convert';
import type { OpenApiDocument, Operation, RouteDoc, RouteDocs } from './types';

interface RouteEntry {
  methods: string[];
  path: string;
}

export const NOT_DESCRIBED =
  'The body of this response is not described by a schema yet: a JSON object (see docs/api.md).';

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
};

/** `/users/:id/posts` → `/users/{id}/posts`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith(':') ? `by-${s.slice(1)}` : s))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [
    method.toLowerCase(),
    ...(words.length ? words : ['root']).map((w) => w[0]!.toUpperCase() + w.slice(1)),
  ].join('');
}

function tagOf(path: string): string {
  const first = path.split('/').filter(Boolean)[0] ?? 'home';
  return first === 'admin' ? `admin/${path.split('/')[2] ?? ''}`.replace(/\/$/, '') : first;
}

function queryParameters(schema: z.ZodType, components: Record<string, JsonSchema>) {
  const json = toOpenApiSchema(schema, components);
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: s,
  }));
}

function operation(method: string, path: string, doc: RouteDoc, components: Record<string, JsonSchema>) {
  const params = [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({
    name: m[1]!,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const parameters = [...params, ...(doc.query ? queryParameters(doc.query, components) : [])];
  const status = String(doc.status ?? 200);
  const success = doc.responseMediaType
    ? { [doc.responseMediaType]: { schema: { type: 'string', contentMediaType: doc.responseMediaType } } }
    : {
        'application/json': {
          schema: doc.response
            ? toOpenApiSchema(doc.response, components)
            : { type: 'object', description: NOT_DESCRIBED },
        },
      };
  const op: Operation = {
    operationId: operationId(method, path),
    summary: doc.summary ?? `${method} ${path}`,
    tags: [tagOf(path)],
    ...(parameters.length ? { parameters } : {}),
    responses: {
      [status]: { description: doc.response ? 'Success' : 'Success (body not described)', content: success },
      default: { $ref: '#/components/responses/Error' },
    },
  };
  if (doc.body)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: toOpenApiSchema(doc.body, components) } },
    };
  else if (doc.bodyMediaType)
    op.requestBody = { required: true, content: { [doc.bodyMediaType]: { schema: { type: 'object' } } } };
  return op;
}

export function serviceDocument(title: string, routes: RouteEntry[], docs: RouteDocs = {}): OpenApiDocument {
  const components: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  const paths: OpenApiDocument['paths'] = {};
  const used = new Set<string>();
  for (const r of routes)
    for (const method of r.methods) {
      const key = `${method.toUpperCase()} ${r.path}`;
      used.add(key);
      const item = (paths[openApiPath(r.path)] ??= {});
      item[method.toLowerCase()] = operation(method.toUpperCase(), r.path, docs[key] ?? {}, components);
    }
  const stale = Object.keys(docs).filter((k) => !used.has(k));
  if (stale.length) throw new Error(`openapi: documented routes that are not mounted: ${stale.join(', ')}`);
  return skeleton(title, paths, components);
}

function skeleton(
  title: string,
  paths: OpenApiDocument['paths'],
  schemas: Record<string, JsonSchema>,
): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title, version: '0.1.0' },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    paths,
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      responses: {
        Error: {
          description: 'An error: 4xx for a bad request (nothing changed), 5xx for a server fault',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    } as OpenApiDocument['components'],
    // Anonymous or signed in: which routes need a token is in docs/api.md and spec 5.3.
    security: [{}, { bearer: [] }],
  };
}

/** One document of several (the gateway's): paths and component schemas joined. */
export function mergeDocuments(
  title: string,
  parts: OpenApiDocument[],
  extra: OpenApiDocument['paths'] = {},
) {
  const paths: OpenApiDocument['paths'] = {};
  const schemas: Record<string, JsonSchema> = {};
  for (const part of parts) {
    for (const [p, item] of Object.entries(part.paths)) paths[p] = { ...(paths[p] ?? {}), ...item };
    Object.assign(schemas, part.components.schemas);
  }
  for (const [p, item] of Object.entries(extra)) paths[p] = { ...(paths[p] ?? {}), ...item };
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return skeleton(title, sorted, schemas);
}
