/**
 * The world of the content interop tests (test/e2e/activitypub-content*.test.ts): this server
 * (social.test) with alice and bob, and a Fedify peer (fedify-world.ts) whose carol and alice
 * follow each other; and the calls those tests make: carol sends through Fedify, alice posts
 * through the outbox, a post is read as a user, the peer's inbox is awaited. State is per test
 * file (Jest loads this module afresh for each file).
 */
import { Follow, type Note, type Person, type Activity } from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { client, waitFor, type TestServer } from './standalone';
import { outbox, registerActor, type Actor } from './actors';
import type { FedifyPeer } from './fedify-peer';
import { createOf, publicNote, startFedifyWorld, type FedifyWorld } from './fedify-world';

export const DOMAIN = 'social.test';
export interface ContentWorld {
  peer: FedifyPeer;
  server: TestServer;
  api: ReturnType<typeof client>;
  alice: Actor;
  bob: Actor;
  fedCtx: Context<void>;
  carolUrl: string;
}
let fedify: FedifyWorld | undefined;
let world: ContentWorld | undefined;
const current = (): ContentWorld => {
  if (!world) throw new Error('bootContentWorld() has not run');
  return world;
};

export const rt = () => current().server.services[0]!.runtime!;
export const aliceUrl = `http://${DOMAIN}/ap/users/alice`;
export const bobUrl = `http://${DOMAIN}/ap/users/bob`;
export type Item = {
  id: string;
  body?: string;
  replyCount?: number;
  reactCount?: number;
  reactSummary?: Record<string, number>;
};

export const person = async (url: string) => (await current().fedCtx.lookupObject(url)) as Person;
/** carol sends `activity` to `to` (a local user's actor URL) through Fedify. */
export const carolSends = async (to: string, activity: Activity) =>
  current().fedCtx.sendActivity({ identifier: 'carol' }, await person(to), activity);
export const read = (who: Actor, id: string) =>
  current().api.get<Item>(`/posts/${encodeURIComponent(id)}`, { token: who.token });
/** The first activity at the peer's inbox that passes `match` (awaited). */
export async function arrived<T extends Activity>(
  match: (a: Activity) => Promise<boolean> | boolean,
): Promise<T> {
  let found: Activity | undefined;
  await waitFor(async () => {
    for (const a of current().peer.inbox) if (await match(a)) found = a;
    return !!found;
  }, 20_000);
  return found as T;
}
export const send = async (activity: Record<string, unknown>, who: Actor = current().alice) => {
  const res = await outbox(current().api, who, activity);
  if (res.status !== 201) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
};

let n = 0;
/** A public Note by carol, sent to alice. */
export async function carolPosts(
  content: string,
  extra: Partial<ConstructorParameters<typeof Note>[0]> = {},
) {
  const url = `${current().carolUrl}/notes/c${++n}`;
  await carolSends(aliceUrl, createOf(publicNote(current().carolUrl, url, content, extra)));
  return url;
}

/** Boots the server and the peer, registers alice and bob; carol and alice follow each other. */
export async function bootContentWorld(): Promise<ContentWorld> {
  fedify = await startFedifyWorld(DOMAIN);
  const { peer, server, api, fedCtx } = fedify;
  const alice = await registerActor(api, 'alice');
  const bob = await registerActor(api, 'bob');
  const carolUrl = peer.actorUrl('carol');
  world = { peer, server, api, alice, bob, fedCtx, carolUrl };
  // carol follows alice (accepted), alice follows carol (accepted).
  await carolSends(
    aliceUrl,
    new Follow({
      id: new URL(`${carolUrl}#follow-alice`),
      actor: new URL(carolUrl),
      object: new URL(aliceUrl),
    }),
  );
  await waitFor(async () => (await rt().repos.followers.ofUser(alice.id)).length === 1, 20_000);
  await send({ type: 'Follow', object: '@carol@peer.test' });
  await waitFor(
    async () => (await rt().repos.activityPub.follow(alice.id, carolUrl))?.state === 'accepted',
    20_000,
  );
  return world;
}

export async function closeContentWorld(): Promise<void> {
  await fedify?.close();
}
