/**
 * POST /inbox (decisions.md §6): a peer's signed activity is verified over its raw bytes,
 * recorded and answered 202, then processed: a public Note from a remote author reaches the
 * local circles that hold that author; Update and Delete change or remove it, only for the
 * peer that sent it. An activity id seen before is not processed twice. Refusals leave nothing.
 */
import { ACTIVITIES, type ActivityRecord } from '@agora/common/db';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { allStored } from '../harness/stored';

const PEER = 'peer.test';
const CAROL = `@carol@${PEER}`;

let peer: SigningPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let bob: Actor;
let following: string;

/** Sends an activity to our inbox as the peer; `tamper` changes the bytes after signing. */
function deliver(activity: Record<string, unknown>, opts: { tamper?: boolean; unsigned?: boolean } = {}) {
  return peer.send(`${server.url}/inbox`, activity, {
    ...(opts.tamper ? { tamper: (body: string) => body.replace('hello', 'HELLO') } : {}),
    ...(opts.unsigned ? { unsigned: true } : {}),
  });
}

const note = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `http://${PEER}/activities/${n}`,
  type: 'Create',
  actorId: CAROL,
  actor: { id: CAROL, name: 'Carol from afar' },
  to: ['https://www.w3.org/ns/activitystreams#Public'],
  object: {
    id: `http://${PEER}/posts/${n}`,
    type: 'Note',
    attributedTo: CAROL,
    content: `<p>hello number ${n} <script>alert(1)</script><strong>world</strong></p>`,
    published: '2026-01-02T03:04:05Z',
  },
  ...extra,
});

async function timeline(): Promise<Array<{ id: string; body?: string; attributedTo?: unknown }>> {
  const res = await api.get<{ orderedItems: Array<{ id: string; body?: string }> }>(
    `/circles/${following}/posts`,
    {
      token: bob.token,
    },
  );
  if (res.status !== 200) throw new Error(`bob's timeline: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems;
}

/** The stored inbound activities of `remoteId`, read through the port (the log is small here). */
async function inboundStatus(remoteId: string) {
  const docs = await allStored<ActivityRecord & { _id: string }>(
    server.services[0]!.runtime!.db.engine,
    ACTIVITIES,
  );
  return docs.filter((d) => d.remoteId === remoteId).map((d) => d.inbound?.status);
}

beforeAll(async () => {
  peer = await startSigningPeer(PEER);
  server = await bootServer(peer.serverEnv);
  api = client(server.url);
  bob = await registerActor(api, 'bob');
  following = (await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token })).body.user
    .following;
  expect((await outbox(api, bob, { type: 'Follow', target: CAROL })).status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
});

test("a public Note from a followed remote author reaches the follower's timeline, sanitised", async () => {
  const res = await deliver(note(1));
  expect(res).toEqual({ status: 202, body: { accepted: true } });
  await waitFor(async () => (await timeline()).some((p) => p.id === `http://${PEER}/posts/1`), 20_000);
  const item = (await timeline()).find((p) => p.id === `http://${PEER}/posts/1`)!;
  expect(item.body).toContain('<strong>world</strong>');
  expect(item.body).not.toContain('script');
  expect(item).toMatchObject({
    originDomain: PEER,
    visibility: 'Public',
    attributedTo: { id: CAROL, name: 'Carol from afar', server: `@${PEER}` },
    published: '2026-01-02T03:04:05.000Z',
  });
  // The outcome is recorded just after the post reaches timelines.
  await waitFor(async () => (await inboundStatus(`http://${PEER}/activities/1`))[0] === 'processed', 20_000);
});

test('an activity id seen before is accepted but not recorded or processed twice', async () => {
  const again = await deliver(note(1));
  expect(again).toEqual({ status: 202, body: { accepted: true, duplicate: true } });
  expect(await inboundStatus(`http://${PEER}/activities/1`)).toEqual(['processed']);
  expect((await timeline()).filter((p) => p.id === `http://${PEER}/posts/1`)).toHaveLength(1);
});

test('Update and Delete act only on posts the same peer and author sent', async () => {
  const edit = (n: number, actor: string, content: string) =>
    deliver({
      id: `http://${PEER}/activities/${n}`,
      type: 'Update',
      actorId: actor,
      object: { id: `http://${PEER}/posts/1`, type: 'Note', content },
    });
  expect((await edit(10, `@dave@${PEER}`, '<p>dave was here</p>')).status).toBe(202);
  await waitFor(async () => (await inboundStatus(`http://${PEER}/activities/10`))[0] === 'ignored', 20_000);
  expect((await edit(11, CAROL, '<p>edited by carol</p>')).status).toBe(202);
  await waitFor(
    async () =>
      !!(await timeline()).find((p) => p.id === `http://${PEER}/posts/1`)?.body?.includes('edited by carol'),
    10_000,
  );
  const del = await deliver({
    id: `http://${PEER}/activities/12`,
    type: 'Delete',
    actorId: CAROL,
    object: `http://${PEER}/posts/1`,
  });
  expect(del.status).toBe(202);
  await waitFor(async () => !(await timeline()).some((p) => p.id === `http://${PEER}/posts/1`), 20_000);
});

test('what is not for here is recorded as ignored or rejected and changes nothing', async () => {
  const before = (await timeline()).length;
  // Not public.
  expect((await deliver(note(20, { to: [`@bob@social.test`] }))).status).toBe(202);
  // Someone else's object id, and someone else as author.
  const foreignObject = note(21);
  (foreignObject.object as { id: string }).id = 'http://elsewhere.test/posts/21';
  expect((await deliver(foreignObject)).status).toBe(202);
  const otherAuthor = note(22);
  (otherAuthor.object as { attributedTo: string }).attributedTo = `@dave@${PEER}`;
  expect((await deliver(otherAuthor)).status).toBe(202);
  // Processed concurrently, in no set order: wait for all three outcomes.
  await waitFor(async () => {
    const states = await Promise.all(
      [20, 21, 22].map((n) => inboundStatus(`http://${PEER}/activities/${n}`)),
    );
    return states.every(([state]) => state !== undefined && state !== 'accepted');
  }, 20_000);
  expect(await inboundStatus(`http://${PEER}/activities/20`)).toEqual(['ignored']);
  expect(await inboundStatus(`http://${PEER}/activities/21`)).toEqual(['rejected']);
  expect(await inboundStatus(`http://${PEER}/activities/22`)).toEqual(['rejected']);
  expect((await timeline()).length).toBe(before);
});

test('refused at the door: unsigned, tampered, foreign ids, foreign actors, malformed', async () => {
  expect((await deliver(note(30), { unsigned: true })).status).toBe(401);
  expect((await deliver(note(31), { tamper: true })).status).toBe(401);
  expect((await deliver({ ...note(32), id: 'http://elsewhere.test/activities/32' })).status).toBe(403);
  expect((await deliver({ ...note(33), actorId: '@mallory@elsewhere.test', actor: undefined })).status).toBe(
    401,
  );
  const malformed = await deliver({ id: `http://${PEER}/activities/34`, actorId: CAROL });
  expect(malformed.status).toBe(400);
  expect(malformed.body.error).toBe('type: is required');
  for (const n of [30, 31, 32, 33, 34])
    expect(await inboundStatus(`http://${PEER}/activities/${n}`)).toEqual([]);
});
