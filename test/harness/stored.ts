/**
 * Helpers for tests on stores: the commands a test database's connection sends (opened with
 * `monitorCommands=true`), a local Note as the stores take it, and, for tests that write as a
 * second replica of a running server, notifications stored at a given time and raw stored times.
 */
import { registerModels, type Database, type Repositories } from '@agora/common/db';
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
 * Stores notifications with the times given (the store stamps `new Date()`), unlisted, then
 * lists them through the store's start-up pass (`prepare`), as for documents written before the
 * lists: a test of many notifications in one millisecond.
 */
export async function storeNotificationsAt(
  db: Database,
  repos: Repositories,
  docs: Array<{ id: string; recipientId: string; actorId: string; createdAt: Date }>,
): Promise<void> {
  const models = registerModels(db.conn);
  for (const d of docs)
    await models.Notification.create({
      ...d,
      _id: d.id,
      type: 'reply',
      summary: 'a reply',
      href: '/',
      listed: false,
    });
  await repos.notifications.prepare();
}

/** A time field of stored documents as written (ms), read raw: what a fixture really holds. */
export async function storedTimes(
  db: Database,
  collection: string,
  field: string,
  ids: string[],
): Promise<number[]> {
  const rows = await db.conn
    .collection(collection)
    .find({ _id: { $in: ids as never[] } })
    .toArray();
  return rows.map((d) => new Date(d[field] as Date).getTime());
}
