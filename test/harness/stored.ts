/**
 * Helpers for integration tests on stores: the commands a test database's connection sends
 * (opened with `monitorCommands=true`), and a local Note as the stores take it.
 */
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
