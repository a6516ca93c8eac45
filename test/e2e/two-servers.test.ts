/**
 * Two Agora servers federating for real (each a standalone server with its own database, the
 * other reached by name through FEDERATION_HOST_MAP): bob on B follows alice on A, alice posts,
 * and the post travels A → B (planned, signed with A's key, verified by B against the key A
 * publishes, processed) into bob's timeline. Sending the Follow itself is not built yet, so the
 * test sends it to A's inbox signed with B's own server key, as B will.
 */
import { request } from 'node:http';
import { createServer } from 'node:net';
import mongoose from 'mongoose';
import { registerModels, signRequest } from '@agora/common';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';

const A = 'social-a.test';
const B = 'social-b.test';
let a: TestServer;
let b: TestServer;
let alice: Actor;
let bob: Actor;
let following = '';
let postId = '';

async function bobsTimeline(): Promise<Array<Record<string, unknown>>> {
  const res = await client(b.url).get<{ orderedItems: Array<Record<string, unknown>> }>(
    `/circles/${following}/posts`,
    { token: bob.token },
  );
  return res.body.orderedItems;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A server whose ids and links use its own domain over http, and that reaches `peer` by name. */
function boot(domain: string, port: number, peer: string, peerPort: number) {
  return bootServer({
    DOMAIN: domain,
    PUBLIC_URL: `http://${domain}`,
    PORT: String(port),
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_HOST_MAP: `${peer}=127.0.0.1:${peerPort}`,
    FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
  });
}

async function privateKeyOf(server: TestServer): Promise<string> {
  const conn = await mongoose.createConnection(server.config.MONGO_URL!).asPromise();
  const setting = await registerModels(conn).Setting.findOne({ name: 'privateKey' }).lean();
  await conn.close();
  return String(setting?.value);
}

beforeAll(async () => {
  const [portA, portB] = [await freePort(), await freePort()];
  [a, b] = await Promise.all([boot(A, portA, B, portB), boot(B, portB, A, portA)]);
  alice = await registerActor(client(a.url), 'alice');
  bob = await registerActor(client(b.url), 'bob');
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

test("alice's public post on A reaches bob's timeline on B", async () => {
  const apiA = client(a.url);
  const apiB = client(b.url);
  // bob follows alice: on B, alice joins his Following circle...
  expect((await outbox(apiB, bob, { type: 'Follow', target: alice.id })).status).toBe(201);
  // ...and B tells A (signed with B's server key, as B's delivery worker signs).
  const follow = JSON.stringify({
    id: `http://${B}/activities/follow-bob-alice`,
    type: 'Follow',
    actorId: bob.id,
    actor: { id: bob.id, inbox: `http://${B}/inbox` },
    object: alice.id,
  });
  const inboxA = `${a.url}/inbox`;
  const signed = signRequest({
    method: 'POST',
    url: `http://${A}/inbox`,
    body: follow,
    keyId: `http://${B}/users/${encodeURIComponent(`@${B}`)}#main-key`,
    privateKeyPem: await privateKeyOf(b),
  });
  // node:http, not fetch: fetch does not let a caller set the Host header the signature covers.
  const accepted = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(inboxA, {
      method: 'POST',
      headers: { ...signed, host: A, 'content-type': 'application/activity+json' },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(follow);
  });
  expect(accepted).toEqual({ status: 202, body: '{"accepted":true}' });

  following = (await apiB.get<{ user: { following: string } }>('/auth/me', { token: bob.token })).body.user
    .following;
  // The Follow is processed asynchronously on A: post until one travels.
  await waitFor(async () => {
    const res = await outbox(apiA, alice, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: `Hello from A, **bob** (${Date.now()})` },
    });
    postId = res.body.createdId!;
    await new Promise((r) => setTimeout(r, 500));
    const tl = await apiB.get<{ orderedItems: Array<{ id: string }> }>(`/circles/${following}/posts`, {
      token: bob.token,
    });
    return tl.body.orderedItems.some((p) => p.id === postId);
  }, 20_000);

  const tl = await apiB.get<{ orderedItems: Array<Record<string, unknown>> }>(`/circles/${following}/posts`, {
    token: bob.token,
  });
  const item = tl.body.orderedItems.find((p) => p.id === postId)!;
  expect(item).toMatchObject({ originDomain: A, actorId: alice.id, visibility: 'Public' });
  expect(String(item.body)).toContain('<strong>bob</strong>');
});

test("alice's edit and then her delete reach bob's timeline on B", async () => {
  const apiA = client(a.url);
  const edited = await outbox(apiA, alice, {
    type: 'Update',
    target: postId,
    object: { content: 'Edited on A' },
  });
  expect(edited.status).toBe(201);
  await waitFor(
    async () => String((await bobsTimeline()).find((p) => p.id === postId)?.body).includes('Edited on A'),
    20_000,
  );
  expect((await outbox(apiA, alice, { type: 'Delete', target: postId })).status).toBe(201);
  await waitFor(async () => !(await bobsTimeline()).some((p) => p.id === postId), 20_000);
});
