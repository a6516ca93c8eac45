/**
 * An inbound reply whose parent is not held here (docs/federation.md, "ActivityPub"; ADR 0027),
 * with a Fedify peer (test/harness/fedify-peer.ts): the parent is fetched from its URL (and its
 * own parent, up to three documents) and the reply joins the thread; a parent that is not public,
 * that does not answer, that is on another server or too far up keeps the reply out, with the
 * reason recorded on the activity.
 */
import type { Note, Person } from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { ACTIVITIES, type ActivityRecord } from '@agora/common/db';
import { signRequest } from '@agora/common/federation';
import { allStored } from '../harness/stored';
import { client, waitFor, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import { createOf, publicNote, startFedifyWorld, type FedifyWorld } from '../harness/fedify-world';
import { remoteObjectIdFor } from '../../services/federation/src/activitypub/ids';

const DOMAIN = 'social.test';
let world: FedifyWorld;
let peer: FedifyPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let fedCtx: Context<void>;
let carolUrl: string;
let daveUrl: string;

const rt = () => server.services[0]!.runtime!;
const aliceUrl = `http://${DOMAIN}/ap/users/alice`;
type Item = { id: string; body?: string; replyCount?: number; actorId?: string };

const read = (id: string) => api.get<Item>(`/posts/${encodeURIComponent(id)}`, { token: alice.token });
const repliesOf = async (id: string) =>
  (
    await api.get<{ orderedItems?: (Item & { parent?: string })[] }>(
      `/posts/${encodeURIComponent(id)}/replies`,
      { token: alice.token },
    )
  ).body.orderedItems ?? [];

/** A Note of dave's the peer answers GET for (this server holds nothing of it). */
function daveNote(name: string, extra: Partial<ConstructorParameters<typeof Note>[0]> = {}): string {
  const url = `${daveUrl}/notes/${name}`;
  peer.notes.set(url, publicNote(daveUrl, url, `<p>dave: ${name}</p>`, extra));
  return url;
}

/** carol's public reply to `parent`, sent to alice; its URL. */
async function carolReplies(name: string, parent: string): Promise<string> {
  const url = `${carolUrl}/notes/${name}`;
  const alicePerson = (await fedCtx.lookupObject(aliceUrl)) as Person;
  await fedCtx.sendActivity(
    { identifier: 'carol' },
    alicePerson,
    createOf(publicNote(carolUrl, url, `<p>carol: ${name}</p>`, { replyTarget: new URL(parent) })),
  );
  return url;
}

/** The recorded outcome of an inbound activity, once processed. */
async function outcomeOf(remoteId: string): Promise<ActivityRecord['inbound']> {
  let found: ActivityRecord | undefined;
  await waitFor(async () => {
    const docs = await allStored<ActivityRecord & { _id: string }>(rt().db.engine, ACTIVITIES);
    found = docs.find((d) => d.remoteId === remoteId && d.inbound?.status !== 'accepted');
    return !!found;
  }, 20_000);
  return found?.inbound;
}

/** The reply was recorded as ignored, its reason saying `why`. */
function expectDropped(outcome: ActivityRecord['inbound'], why: string): void {
  expect(outcome?.status).toBe('ignored');
  expect(outcome?.reason).toContain(why);
}

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN);
  ({ peer, server, api, fedCtx } = world);
  alice = await registerActor(api, 'alice');
  carolUrl = peer.actorUrl('carol');
  daveUrl = peer.actorUrl('dave');
});
afterAll(async () => {
  await world?.close();
});

test("a reply to a post not held here fetches the post, which is kept as dave's, and joins its thread", async () => {
  const root = daveNote('root-1');
  const reply = await carolReplies('reply-1', root);
  const rootId = remoteObjectIdFor(root);
  await waitFor(async () => (await repliesOf(rootId)).length === 1, 20_000);
  expect((await repliesOf(rootId))[0]).toMatchObject({ id: remoteObjectIdFor(reply, 'reply') });
  const post = (await read(rootId)).body;
  expect(post).toMatchObject({ id: rootId, actorId: '@dave@peer.test', replyCount: 1 });
  expect(post.body).toContain('dave: root-1');
  expect(await outcomeOf(`${reply}#create`)).toMatchObject({ status: 'processed' });
});

test('a reply to a reply not held here fetches both, root first, and joins under the first-level reply', async () => {
  const root = daveNote('root-2');
  const middle = daveNote('middle-2', { replyTarget: new URL(root) });
  const reply = await carolReplies('reply-2', middle);
  const rootId = remoteObjectIdFor(root);
  await waitFor(async () => (await repliesOf(rootId)).length === 2, 20_000);
  const ids = (await repliesOf(rootId)).map((r) => r.id);
  expect(ids).toEqual(
    expect.arrayContaining([remoteObjectIdFor(middle, 'reply'), remoteObjectIdFor(reply, 'reply')]),
  );
  expect(await rt().repos.replies.byId(remoteObjectIdFor(reply, 'reply'))).toMatchObject({
    target: rootId,
    parent: remoteObjectIdFor(middle, 'reply'),
  });
});

test('a parent that is not public is not kept, and the reply is dropped with the reason', async () => {
  const hidden = daveNote('hidden-3', { to: new URL(`${daveUrl}/followers`) });
  const reply = await carolReplies('reply-3', hidden);
  expectDropped(await outcomeOf(`${reply}#create`), 'not public');
  expect(await rt().repos.posts.byId(remoteObjectIdFor(hidden))).toBeNull();
  expect(await rt().repos.replies.byId(remoteObjectIdFor(reply, 'reply'))).toBeNull();
});

test('a parent that does not answer: the reply is dropped with the reason', async () => {
  const reply = await carolReplies('reply-4', `${daveUrl}/notes/never-written`);
  expectDropped(await outcomeOf(`${reply}#create`), 'could not be fetched');
  expect(await rt().repos.replies.byId(remoteObjectIdFor(reply, 'reply'))).toBeNull();
});

test("a parent on another server than the reply's is not fetched: only a thread's server is heard", async () => {
  const reply = await carolReplies('reply-5', 'http://elsewhere.test/notes/1');
  expectDropped(await outcomeOf(`${reply}#create`), 'another server');
});

test('a thread more than three posts deep above the reply is not fetched past the bound', async () => {
  const n1 = daveNote('deep-1');
  const n2 = daveNote('deep-2', { replyTarget: new URL(n1) });
  const n3 = daveNote('deep-3', { replyTarget: new URL(n2) });
  const n4 = daveNote('deep-4', { replyTarget: new URL(n3) });
  const reply = await carolReplies('reply-6', n4);
  expectDropped(await outcomeOf(`${reply}#create`), 'more than 3');
  expect(await rt().repos.posts.byId(remoteObjectIdFor(n1))).toBeNull();
  expect(await rt().repos.replies.byId(remoteObjectIdFor(n4, 'reply'))).toBeNull();
});

test('a parent claiming another URL than the one it was fetched at is refused', async () => {
  const url = `${daveUrl}/notes/liar`;
  // The peer answers this URL with a Note whose id is another one.
  peer.notes.set(url, publicNote(daveUrl, `${daveUrl}/notes/somewhere-else`, '<p>not me</p>'));
  const reply = await carolReplies('reply-7', url);
  expectDropped(await outcomeOf(`${reply}#create`), 'could not be fetched');
  expect(await rt().repos.posts.byId(remoteObjectIdFor(`${daveUrl}/notes/somewhere-else`))).toBeNull();
});

test("a peer's own `ancestors` are never read: only what this server fetched is applied", async () => {
  const inbox = `http://${DOMAIN}/users/alice/inbox`;
  const forged = `${daveUrl}/notes/forged-root`;
  const url = `${carolUrl}/notes/reply-8`;
  const activity = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${url}#create`,
    type: 'Create',
    actor: carolUrl,
    to: ['https://www.w3.org/ns/activitystreams#Public'],
    object: {
      id: url,
      type: 'Note',
      attributedTo: carolUrl,
      inReplyTo: forged,
      content: 'carol: reply-8',
      to: ['https://www.w3.org/ns/activitystreams#Public'],
    },
    // A Create of dave's that the peer never published, in the form this server's services use.
    ancestors: [
      {
        type: 'Create',
        actorId: '@dave@peer.test',
        to: ['@public'],
        object: {
          id: forged,
          type: 'Note',
          attributedTo: '@dave@peer.test',
          content: 'forged',
          to: ['@public'],
        },
      },
    ],
  };
  const body = JSON.stringify(activity);
  // Through the host map (fedify-peer.ts), so the request carries `Host: social.test` as signed.
  const res = await fetch(inbox, {
    method: 'POST',
    headers: {
      'content-type': 'application/activity+json',
      ...signRequest({
        method: 'POST',
        url: inbox,
        body,
        keyId: `${carolUrl}#main-key`,
        privateKeyPem: peer.keys.carol!.pem.privateKey,
      }),
    },
    body,
  });
  expect(res.status).toBe(202);
  expectDropped(await outcomeOf(`${url}#create`), 'could not be fetched');
  expect(await rt().repos.posts.byId(forged)).toBeNull();
  expect(await rt().repos.posts.byId(remoteObjectIdFor(forged))).toBeNull();
});
