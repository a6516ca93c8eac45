/**
 * One standalone server with alice, bob, carol and dave registered, and a queue of the test's own
 * on its bus that captures what social publishes under `patterns` (the groups and notifications
 * stories: test/harness/groups.ts, test/harness/notifications.ts).
 */
import type { BusMessage } from '@agora/common/messaging';
import { bootServer, client, type TestServer } from './standalone';
import { registerActor, type Actor } from './actors';

export interface FourUsers {
  server: TestServer;
  api: ReturnType<typeof client>;
  /** alice, bob, carol and dave. */
  actors: [Actor, Actor, Actor, Actor];
  /** Every captured message, in the order delivered. */
  events: BusMessage[];
}

export async function bootFourUsers(queue: string, patterns: string[]): Promise<FourUsers> {
  const server = await bootServer();
  const api = client(server.url);
  const actors = (await Promise.all(['alice', 'bob', 'carol', 'dave'].map((n) => registerActor(api, n)))) as [
    Actor,
    Actor,
    Actor,
    Actor,
  ];
  const events: BusMessage[] = [];
  await server.services[0]!.runtime!.bus.subscribe(queue, patterns, (msg) => {
    events.push(msg);
    return Promise.resolve();
  });
  return { server, api, actors, events };
}
