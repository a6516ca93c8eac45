/**
 * Each service stands alone (issue 8, item 7): the gateway, social, admin, federation and
 * notifications run as separate processes from their compiled entry points with the environment
 * of deploy/k8s (test/harness/cluster.ts), and the circle story runs through the gateway's port
 * only: register → a circle post → a member reads it and an outsider cannot → a reply becomes a
 * notification. Standalone mode shares one database connection, one bus and one process between
 * the services; here any service that leaned on another's memory would fail a step.
 */
import { randomUUID } from 'node:crypto';
import { registerActor, type Actor } from '../harness/actors';
import { CLUSTER_ADMIN, DOMAIN_SERVICES, startCluster, type Cluster } from '../harness/cluster';
import { client, waitFor } from '../harness/standalone';

let cluster: Cluster;
let api: ReturnType<typeof client>;

/** Runs one step of the story; a failure names the step and shows every process's last output. */
async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    e.message = `step "${name}" failed: ${e.message}\n\n${cluster.logs()}`;
    throw e;
  }
}

/** POST /outbox as `who`; anything but 201 throws with the status and body. */
async function send(who: Actor, activity: Record<string, unknown>): Promise<string> {
  const res = await api.post<{ createdId?: string; error?: string }>('/outbox', activity, {
    token: who.token,
    headers: { 'idempotency-key': randomUUID() },
  });
  if (res.status !== 201 || !res.body.createdId)
    throw new Error(`outbox ${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId;
}

/** GET a collection as `who`; anything but 200 throws, so a refusal never reads as "not there". */
async function ids(path: string, who: Actor): Promise<string[]> {
  const res = await api.get<{ orderedItems?: Array<{ id: string }> }>(path, { token: who.token });
  if (res.status !== 200 || !Array.isArray(res.body.orderedItems))
    throw new Error(`GET ${path} as ${who.username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems.map((i) => i.id);
}

/** The id of `who`'s Following circle (whose timeline holds the posts of whom they follow). */
async function followingOf(who: Actor): Promise<string> {
  const me = await api.get<{ user?: { following?: string } }>('/auth/me', { token: who.token });
  const id = me.body.user?.following;
  if (me.status !== 200 || !id) throw new Error(`GET /auth/me: ${me.status} ${JSON.stringify(me.body)}`);
  return id;
}

beforeAll(async () => {
  cluster = await startCluster();
  api = client(cluster.url);
});

afterAll(async () => {
  if (!cluster) return;
  const codes = await cluster.stop();
  // Kubernetes stops a pod with SIGTERM: every service drains and exits 0 within the grace period.
  const unclean = Object.entries(codes).filter(([, code]) => code !== 0);
  if (unclean.length)
    throw new Error(`not stopped cleanly by SIGTERM: ${JSON.stringify(unclean)}\n\n${cluster.logs()}`);
});

test('the gateway sees every service as its own process', async () => {
  const pids = new Set(Object.values(cluster.processes).map((p) => p.pid));
  expect(pids.size).toBe(DOMAIN_SERVICES.length + 1);
  const health = await api.get<{ status: string; services: Record<string, string> }>('/health');
  expect(health.status).toBe(200);
  expect(health.body.services).toMatchObject({
    social: 'up',
    admin: 'up',
    federation: 'up',
    notifications: 'up',
    mongodb: 'connected',
    redis: 'connected',
  });
  // The route list is gathered from each service over HTTP: a route of each is in it (social,
  // admin, federation, notifications).
  const routes = await api.get<{ routes: Array<{ path: string }> }>('/__routes');
  const paths = routes.body.routes.map((r) => r.path);
  expect(paths).toEqual(
    expect.arrayContaining(['/auth/login', '/admin/activities', '/.well-known/jwks.json', '/notifications']),
  );
});

test('register → circle post → a member reads it, an outsider cannot → a reply notifies the author', async () => {
  const [alice, bob, carol] = await step('register three users', () =>
    Promise.all(['alice', 'bob', 'carol'].map((n) => registerActor(api, n))),
  );
  const a = alice!;
  const b = bob!;
  const c = carol!;

  const [bobFollows, carolFollows] = await step('bob and carol follow alice', () =>
    Promise.all(
      [b, c].map(async (who) => {
        const id = await followingOf(who);
        await send(who, { type: 'Add', target: id, object: a.id });
        return id;
      }),
    ),
  );

  const circleId = await step('alice creates a circle and adds bob', async () => {
    const id = await send(a, { type: 'Create', objectType: 'Circle', to: a.id, object: { name: 'Close' } });
    await send(a, { type: 'Add', target: id, object: b.id });
    return id;
  });

  const postId = await step('alice posts to the circle', () =>
    send(a, { type: 'Create', objectType: 'Post', to: circleId, object: { content: 'Circle only' } }),
  );

  await step('bob reads the post by id and in his timeline', async () => {
    const byId = await api.get<{ id: string }>(`/posts/${postId}`, { token: b.token });
    expect(byId.status).toBe(200);
    expect(byId.body.id).toBe(postId);
    expect(await ids(`/circles/${bobFollows!}/posts`, b)).toContain(postId);
  });

  await step('carol, not a member, reaches neither the post nor the circle', async () => {
    // carol follows alice too, yet the circle post never reaches her timeline.
    expect(await ids(`/circles/${carolFollows!}/posts`, c)).not.toContain(postId);
    expect((await api.get(`/posts/${postId}`, { token: c.token })).status).toBe(404);
    expect((await api.get(`/circles/${circleId}`, { token: c.token })).status).toBe(403);
    expect((await api.get(`/posts/${postId}`)).status).toBe(404);
    expect(await ids('/posts', c)).not.toContain(postId);
  });

  const replyId = await step('bob replies', () =>
    send(b, { type: 'Reply', to: postId, object: { content: 'Seen it' } }),
  );

  await step('alice gets a notification for the reply', async () => {
    // social publishes the reply on RabbitMQ; the notifications process consumes it and serves
    // GET /notifications. Poll with a deadline: delivery is asynchronous.
    const deadline = Date.now() + 20_000;
    let last = '';
    for (;;) {
      const res = await api.get<{ orderedItems?: Array<Record<string, unknown>> }>(
        '/notifications?types=reply',
        { token: a.token },
      );
      if (res.status !== 200)
        throw new Error(`GET /notifications: ${res.status} ${JSON.stringify(res.body)}`);
      const note = res.body.orderedItems?.find((n) => n.objectId === postId);
      if (note) {
        expect(note).toMatchObject({ type: 'reply', recipientId: a.id, actorId: b.id, read: false });
        break;
      }
      last = JSON.stringify(res.body);
      if (Date.now() > deadline) throw new Error(`no reply notification within 20 s (last: ${last})`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // The reply is in the thread for alice too (social), and carol still sees nothing of it.
    expect(await ids(`/posts/${postId}/replies`, a)).toContain(replyId);
    expect((await api.get(`/posts/${postId}/replies`, { token: c.token })).status).toBe(404);
  });
});

test('the admin process moderates what the social process serves: a removed post and a deleted user', async () => {
  const admin = await step('the admin logs in', async () => {
    const res = await api.post<{ token?: string }>('/auth/login', CLUSTER_ADMIN);
    if (res.status !== 200 || !res.body.token)
      throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.token;
  });
  const [dave, erin] = (await step('register two users', () =>
    Promise.all(['dave', 'erin'].map((n) => registerActor(api, n))),
  )) as [Actor, Actor];
  const erinFollows = await step('erin follows dave and reads his public post', async () => {
    const id = await followingOf(erin);
    await send(erin, { type: 'Add', target: id, object: dave.id });
    return id;
  });
  const postId = await step('dave posts in public; erin sees it in her (cached) timeline', async () => {
    const id = await send(dave, {
      type: 'Create',
      objectType: 'Post',
      to: '@public',
      object: { content: 'Hi' },
    });
    expect(await ids(`/circles/${erinFollows}/posts`, erin)).toContain(id);
    expect((await api.get(`/posts/${id}`, { token: erin.token })).status).toBe(200);
    return id;
  });

  await step('the admin removes the post; social no longer serves it', async () => {
    const del = await api.call('DELETE', `/admin/posts/${encodeURIComponent(postId)}`, { token: admin });
    expect(del.status).toBe(200);
    expect((await api.get(`/posts/${postId}`, { token: erin.token })).status).toBe(404);
    expect(await ids(`/circles/${erinFollows}/posts`, erin)).not.toContain(postId);
  });

  await step('the admin deletes dave; his token is refused by social and notifications', async () => {
    expect((await api.get('/auth/me', { token: dave.token })).status).toBe(200);
    const del = await api.call('DELETE', `/admin/users/${encodeURIComponent(dave.id)}`, { token: admin });
    expect(del.status).toBe(200);
    // Each process caches a verified user for AUTH_CACHE_MS (2 s), then reads the deletion.
    const refused = async (path: string) => (await api.get(path, { token: dave.token })).status === 401;
    await waitFor(async () => (await refused('/auth/me')) && (await refused('/notifications')), 10_000);
  });
});
