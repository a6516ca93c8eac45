/** Input validation for handlers: zod, and a 400 whose message names the offending field. */
import { z } from 'zod';
import { BadRequest } from './errors';

export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  throw new BadRequest(`${path || 'body'}: ${issue.message}`);
}

/** A string id of an object or user: no operators, no objects, bounded. */
export const idString = z
  .string()
  .min(1)
  .max(300)
  .regex(/^[^$\s{}]+$/, 'must be an id');
