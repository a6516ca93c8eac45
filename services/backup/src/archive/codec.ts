/**
 * One archived document a line: relaxed Extended JSON (dates as `{"$date": …}`, numbers as plain
 * numbers), written and read the same on either engine, so an archive taken on one restores on
 * the other. Extended JSON reads an object whose keys look like a type wrapper as that type:
 * `{"$numberLong": "12"}` comes back as 12, `{"$date": "soon"}` as an invalid date and
 * `{"$oid": "x"}` fails the restore. Data can hold such keys (an admin's JSON setting, echoed in
 * the activity log and the idempotency store), so from version 3 every key of the data that
 * starts with `$` is written with one more `$` (`$$numberLong`), which no wrapper matches, and
 * read back without it. Version 2 archives are read as they were written. The Extended JSON
 * library is passed in (`loadEJSON`): it comes with the MongoDB driver, which a server on SQLite
 * loads only when it backs up or restores.
 */
import type { EJSON, RawDocument } from '@agora/common/db';

/** The first archive version whose keys are escaped. */
const ESCAPED_FROM = 3;

const tag = (v: unknown) => Object.prototype.toString.call(v);

/** A JSON object of the data (not a Date or another BSON value, which Extended JSON encodes). */
function isDataObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && tag(v) === '[object Object]' && !('_bsontype' in v);
}

/** `map` applied to every key of every object, arrays and nested objects included. */
function renameKeys(v: unknown, map: (key: string) => string): unknown {
  if (Array.isArray(v)) return v.map((x) => renameKeys(x, map));
  if (!isDataObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[map(k)] = renameKeys(x, map);
  return out;
}

const escapeKey = (k: string) => (k.startsWith('$') ? `$${k}` : k);
const unescapeKey = (k: string) => (k.startsWith('$$') ? k.slice(1) : k);

/** The document as one line (without its newline). */
export function encodeDocument(ejson: EJSON, doc: RawDocument): string {
  return ejson.stringify(renameKeys(doc, escapeKey), { relaxed: true });
}

/** A line of an archive of `version` as the document it holds; throws on invalid Extended JSON. */
export function decodeDocument(ejson: EJSON, line: string, version: number): RawDocument {
  const doc = ejson.parse(line, { relaxed: true }) as RawDocument;
  return version >= ESCAPED_FROM ? (renameKeys(doc, unescapeKey) as RawDocument) : doc;
}
