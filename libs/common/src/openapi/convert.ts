/**
 * zod → the JSON Schema (2020-12) dialect of OpenAPI 3.1, with zod 4's own `z.toJSONSchema`.
 * A schema registered in `wireRegistry` becomes a `#/components/schemas/<id>` reference; its
 * definition is collected into `components`.
 */
import { z } from 'zod';
import { wireRegistry } from './wire';

export type JsonSchema = Record<string, unknown>;

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/** Rewrites every `$ref` into `#/components/schemas/...` and drops `$schema`/`$id`. */
function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema' || k === '$id' || k === '$defs') continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith(DEFS))
      out[k] = COMPONENTS + v.slice(DEFS.length);
    else out[k] = rewrite(v);
  }
  return out;
}

/**
 * Always the input side of a schema: for a request body what the client sends (before a
 * transform), and for a response no `additionalProperties: false` (zod's output side adds it),
 * as a service may send more fields than the document names. What JSON Schema cannot say
 * (refinements, transforms) is left out: the service still enforces it, with a 400 `{ error }`
 * naming the field.
 */
export function toOpenApiSchema(schema: z.ZodType, components: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    metadata: wireRegistry,
  }) as JsonSchema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  for (const [name, def] of Object.entries(defs)) {
    const converted = rewrite(def) as JsonSchema;
    const known = components[name];
    if (known && JSON.stringify(known) !== JSON.stringify(converted))
      throw new Error(`openapi: two different schemas are named ${name}`);
    components[name] = converted;
  }
  return rewrite(json) as JsonSchema;
}
