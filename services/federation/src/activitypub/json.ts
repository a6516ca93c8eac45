/**
 * Reading ActivityPub JSON as it arrives (any shape): objects, ids given embedded or as a URL,
 * properties that may be one value or a list, and whether something is addressed to the public.
 */
import { PUBLIC_FORMS } from './vocab';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The id of an embedded object or a URL given as is (at most 2,000 characters). */
export const idOf = (v: unknown): string | undefined => {
  const id = isObject(v) ? v.id : v;
  return typeof id === 'string' && id.length <= 2000 ? id : undefined;
};

/** A property that may be absent, one value or a list, as a list. */
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** The object types kept as posts. */
export const POST_TYPES: ReadonlySet<string> = new Set(['Note', 'Article', 'Question', 'Page']);

/** Whether `to` or `cc` of an activity or object names the Public collection (in any of its forms). */
export const addressesPublic = (o: Json): boolean =>
  [o.to, o.cc].flatMap(list).some((t) => PUBLIC_FORMS.has(idOf(t) ?? ''));
