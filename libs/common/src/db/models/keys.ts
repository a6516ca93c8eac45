/**
 * Every document is keyed by a string `_id` that the application knows before it reads: the
 * object's own `id` (`post:…@domain`, `@alice@domain`), a setting's name, or a composite such as
 * `<target>|<actor>` for one reaction per actor. FerretDB's SQLite handler serves only a filter
 * that is exactly `{ _id }` from an index (ADR 0004), so every hot read and write in the stores
 * is an `_id` lookup; on MongoDB `_id` is the primary index anyway.
 */
import type { Schema } from 'mongoose';

/** Fills a schema's string `_id` from `derive(doc)` when a document is created without one. */
export function fillKey<T extends Record<string, unknown>>(
  schema: Schema,
  derive: (doc: T) => string | undefined = (doc) => doc.id as string | undefined,
): Schema {
  schema.pre('validate', function setKey() {
    const doc = this as unknown as T & { _id?: unknown };
    if (doc._id == null) {
      const key = derive(doc);
      if (key) doc._id = key;
    }
  });
  return schema;
}
