/**
 * The world of the interactions story (test/e2e/interactions*.test.ts): one standalone server with
 * alice, bob and carol, and alice's circle "Friends" with bob in it (carol is not); the calls the
 * tests make, and fixtures that make a new post or thread per test. State is per test file (Jest
 * loads this module afresh for each file).
 */
import { bootServer, client, type TestServer } from './standalone';
import { registerActor, type Actor } from './actors';

export type Body = {
  ok?: boolean;
  createdId?: string;
  result?: Record<string, unknown>;
  activity?: Record<string, unknown>;
  error?: string;
};
export type Post = Record<string, unknown> & {
  id: string;
  replyCount: number;
  reactCount: number;
  reactSummary: Record<string, number>;
  myReact?: string | null;
};
export type Collection = {
  totalItems: number;
  orderedItems: Array<Record<string, unknown> & { id: string }>;
};

export interface InteractionsWorld {
  server: TestServer;
  api: ReturnType<typeof client>;
  alice: Actor;
  bob: Actor;
  carol: Actor;
  /** alice's circle with bob in it. */
  circleId: string;
}
let world: InteractionsWorld | undefined;
const current = (): InteractionsWorld => {
  if (!world) throw new Error('bootInteractions() has not run');
  return world;
};
let seq = 0;

/** POST /outbox with a fresh Idempotency-Key, so repeated bodies reach the handler (spec 1.6 de-dup). */
export const send = (who: Actor, activity: unknown) =>
  current().api.post<Body>('/outbox', activity, {
    token: who.token,
    headers: { 'idempotency-key': `interactions-${++seq}` },
  });
/** `send` for fixture steps: anything but 201 fails the test here. */
export const must = async (who: Actor, activity: Record<string, unknown>) => {
  const res = await send(who, activity);
  if (res.status !== 201)
    throw new Error(`${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
export const getPost = (id: string, who: Actor) =>
  current().api.get<Post>(`/posts/${id}`, { token: who.token });
export const userCounts = async (who: Actor) =>
  (await current().server.services[0]!.runtime!.repos.users.findById(who.id))!;
export const followingOf = async (who: Actor) => {
  const res = await current().api.get<{ user: { following: string; blocked: string } }>('/auth/me', {
    token: who.token,
  });
  if (res.status !== 200) throw new Error(`/auth/me: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.user;
};
export const timeline = async (who: Actor, circle: string) => {
  const res = await current().api.get<Collection>(`/circles/${circle}/posts`, { token: who.token });
  if (res.status !== 200) throw new Error(`timeline ${circle}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.map((p) => p.id);
};
/** `who` follows `whom` through their Following circle (adding twice keeps one membership). */
export const follow = async (who: Actor, whom: Actor) => {
  const following = (await followingOf(who)).following;
  await must(who, { type: 'Add', target: following, object: whom.id });
  return following;
};

/** A new post of alice's to the shared circle (bob is in it, carol is not). */
export const circlePost = async (content = 'Hello friends') =>
  (
    await must(current().alice, {
      type: 'Create',
      objectType: 'Post',
      to: current().circleId,
      object: { content: `${content} ${++seq}` },
    })
  ).createdId!;
/** A new circle post with one reply of bob's. */
export const thread = async () => {
  const postId = await circlePost();
  const replyId = (
    await must(current().bob, { type: 'Reply', to: postId, object: { content: `Nice *one* ${++seq}` } })
  ).createdId!;
  return { postId, replyId };
};

/** Boots the server, registers alice, bob and carol, and creates alice's circle with bob. */
export async function bootInteractions(): Promise<InteractionsWorld> {
  const server = await bootServer();
  const api = client(server.url);
  const [alice, bob, carol] = (await Promise.all(
    ['alice', 'bob', 'carol'].map((n) => registerActor(api, n)),
  )) as [Actor, Actor, Actor];
  world = { server, api, alice, bob, carol, circleId: '' };
  world.circleId = (
    await must(alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'Friends', members: [bob.id] },
    })
  ).createdId!;
  return world;
}

export async function closeInteractions(): Promise<void> {
  await world?.server.close();
}
