/**
 * Helpers for tests on stores: the commands a test database's connection sends (opened with
 * `monitorCommands=true`), a local Note as the stores take it, and, for tests that write as a
 * second replica of a running server, notifications stored at a given time, raw stored times and
 * every document of a store's collection.
 */
import type { Database, Stores } from '@agora/common/db';
import type { CollectionSpec, Doc, Engine } from '@agora/common/db/engine';
import type { TestDatabase } from './database';

export interface SentCommand {
  name: string;
  coll: unknown;
  command: Record<string, unknown>;
}

/** Records every command the connection sends, from `beforeAll` on (the array fills as they go). */
export function recordCommands(t: TestDatabase): SentCommand[] {
  const sent: SentCommand[] = [];
  beforeAll(() => {
    if (!t.db.conn)
      throw new Error(
        'recordCommands needs the MongoDB adapter: useTestDatabase(..., { engine: "mongodb" })',
      );
    t.db.conn
      .getClient()
      .on('commandStarted', (e: { commandName: string; command: Record<string, unknown> }) =>
        sent.push({ name: e.commandName, coll: e.command[e.commandName], command: e.command }),
      );
  });
  return sent;
}

/** A local public Note `n` by `actorId`, published `n` seconds after 1e12 ms. */
export function notePost(id: string, actorId: string, n: number, to = '@public') {
  return {
    id,
    actorId,
    to,
    canReply: '@public',
    canReact: '@public',
    type: 'Note',
    source: { content: `post ${n}`, mediaType: 'text/markdown' },
    body: `<p>post ${n}</p>`,
    publishedAt: new Date(1e12 + n * 1000),
  };
}

/**
 * Stores notifications with the times given through the store, as a second replica would (each
 * its own group and event, so none groups into another): a test of many notifications in one
 * millisecond.
 */
export async function storeNotificationsAt(
  repos: Stores,
  docs: Array<{ id: string; recipientId: string; actorId: string; createdAt: Date }>,
): Promise<void> {
  for (const d of docs) {
    const outcome = await repos.notifications.create({
      ...d,
      type: 'reply',
      actorName: d.actorId,
      summary: 'a reply',
      href: '/',
      groupKey: `reply:${d.id}`,
      eventId: `fixture:${d.id}|reply|${d.recipientId}`,
    });
    if (outcome !== 'created') throw new Error(`notification ${d.id}: ${outcome}`);
  }
}

/** Every document of a store's collection, read through the engine port (`scan`, in `_id` order). */
export async function allStored<T extends Doc>(engine: Engine, spec: CollectionSpec): Promise<T[]> {
  const docs: T[] = [];
  for await (const batch of engine.collection<T>(spec).scan()) docs.push(...batch);
  return docs;
}

/** A time field of stored documents as written (ms), read raw: what a fixture really holds. */
export async function storedTimes(
  db: Database,
  collection: string,
  field: string,
  ids: string[],
): Promise<number[]> {
  const rows = await db.engine
    .collection<Doc & Record<string, unknown>>({ name: collection, indexes: [], dates: [field] })
    .find({ _id: { $in: ids } });
  return rows.map((d) => new Date(d[field] as Date).getTime());
}

/** Dates as instants, object keys in order: what two engines must agree on, and nothing else. */
export function plain(v: unknown): unknown {
  if (Object.prototype.toString.call(v) === '[object Date]') return { $date: (v as Date).toISOString() };
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, x]) => [k, plain(x)]),
    );
  return v;
}

export /** Every document of each collection, `plain`, by collection name (in `_id` order). */
async function storedDocuments(
  engine: Engine,
  specs: readonly CollectionSpec[],
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) out[spec.name] = plain(await allStored(engine, spec));
  return out;
}
