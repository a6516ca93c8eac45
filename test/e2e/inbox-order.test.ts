/**
 * Activities about one post that arrive out of order (docs/federation.md, "Held deliveries",
 * ordering): an Update that overtook its Create makes the copy (it carries the whole post) and the
 * late Create changes nothing; an Update that arrives after the post's Delete does not bring it
 * back. Outcomes are read from the activity log (recorded state), not from a wait.
 */
import { ACTIVITIES, type ActivityRecord } from '@agora/common/db';
import { bootServer, waitFor, type TestServer } from '../harness/standalone';
import { startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { allStored } from '../harness/stored';

const PEER = 'order-peer.test';
const CAROL = `@carol@${PEER}`;
let peer: SigningPeer;
let server: TestServer;
let n = 0;

const send = async (type: string, object: unknown) => {
  const id = `http://${PEER}/activities/${++n}`;
  const res = await peer.send(`${server.url}/inbox`, {
    id,
    type,
    actorId: CAROL,
    to: ['https://www.w3.org/ns/activitystreams#Public'],
    object,
  });
  expect(res.status).toBe(202);
  return id;
};
const note = (postId: string, content: string) => ({
  id: postId,
  type: 'Note',
  attributedTo: CAROL,
  content,
  to: ['https://www.w3.org/ns/activitystreams#Public'],
});
async function outcome(remoteId: string): Promise<string | undefined> {
  const docs = await allStored<ActivityRecord & { _id: string }>(
    server.services[0]!.runtime!.db.engine,
    ACTIVITIES,
  );
  const status = docs.find((d) => d.remoteId === remoteId)?.inbound?.status;
  return status === 'accepted' ? undefined : status;
}
const settled = async (remoteId: string) => {
  await waitFor(async () => (await outcome(remoteId)) !== undefined, 20_000);
  return outcome(remoteId);
};
const copy = (id: string) => server.services[0]!.runtime!.repos.posts.byId(id);

beforeAll(async () => {
  peer = await startSigningPeer(PEER);
  server = await bootServer(peer.serverEnv);
});
afterAll(async () => {
  await server?.close();
  await peer?.close();
});

test('an Update that overtook its Create makes the copy; the late Create changes nothing', async () => {
  const post = `http://${PEER}/posts/overtaken`;
  expect(await settled(await send('Update', note(post, '<p>edited</p>')))).toBe('processed');
  expect((await copy(post))?.body).toContain('edited');
  expect(await settled(await send('Create', note(post, '<p>first draft</p>')))).toBe('ignored');
  expect((await copy(post))?.body).toContain('edited');
});

test('an Update that arrives after the Delete does not bring the post back', async () => {
  const post = `http://${PEER}/posts/gone`;
  expect(await settled(await send('Create', note(post, '<p>soon gone</p>')))).toBe('processed');
  expect(await settled(await send('Delete', post))).toBe('processed');
  expect(await settled(await send('Update', note(post, '<p>older edit</p>')))).toBe('ignored');
  expect((await copy(post))?.deletedAt).toBeInstanceOf(Date);
});
