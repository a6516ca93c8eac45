/**
 * The cluster tier (issue 25): the cluster of `npm run cluster` (two replicas of the gateway,
 * social, federation and notifications, one admin, the backup worker, a balancer in front of the
 * gateways; test/harness/cluster.ts), driven through the balancer (the staleness check also asks
 * each social replica directly).
 * 1. The main story: register, follow, a circle post a member reads and an outsider cannot, a
 *    reply that becomes a notification.
 * 1b. Live updates (ADR 0020): a post written through one gateway replica reaches streams held
 *    through the other (each notifications replica consumes every event on a queue of its own).
 * 2. A setting changed through admin is read by both social replicas at once (the staleness
 *    bound of docs/operations.md for settings: none).
 * 3. Under a bounded write load (load.ts): one social replica is SIGKILLed. No accepted write is
 *    lost (every 201 is readable afterwards); the failed requests are at most one per writer
 *    (the request in flight on the killed replica).
 * 4. Under the same load, every service is rolled one replica at a time with SIGTERM: every
 *    process exits 0 and no request fails (readiness 503, drain, the gateway and the balancer
 *    send refused or broken safe requests to another replica).
 * 5. Under the same load, Redis (a private instance) is stopped and started again: no request
 *    fails, no accepted write is lost, every gateway reconnects.
 * 6. Under the same load, RabbitMQ (a private broker) is stopped and started again: no request
 *    fails, no accepted write is lost, every service reconnects, and a write made while the
 *    broker was away still does its work (its event waited in the outbox).
 * 7. The backup worker stopped mid-job records the job failed and exits 0; the next backup is
 *    accepted at once and done by the restarted worker.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createS3Storage } from '@agora/common/storage';
import { registerActor, type Actor } from '../harness/actors';
import { CLUSTER_ADMIN, startCluster, type Cluster, type ClusterMember } from '../harness/cluster';
import { testEnv } from '../harness/env';
import { startPrivateRabbitMq, type PrivateRabbitMq } from '../harness/private-rabbitmq';
import { startPrivateRedis, type PrivateRedis } from '../harness/private-redis';
import { openStream } from '../harness/sse';
import { client } from '../harness/standalone';
import { startLoad, type LoadReport } from './load';

const REPLICAS = { gateway: 2, social: 2, federation: 2, notifications: 2 } as const;
const WRITERS = 4;

let cluster: Cluster;
let api: ReturnType<typeof client>;
let writers: Actor[];
let redis: PrivateRedis;
let rabbit: PrivateRabbitMq;

/** Runs one step; a failure names the step and shows every process's last output. */
async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    e.message = `step "${name}" failed: ${e.message}\n\n${cluster.logs(25)}`;
    throw e;
  }
}

async function send(who: Actor, activity: Record<string, unknown>): Promise<string> {
  const res = await api.post<{ createdId?: string }>('/outbox', activity, {
    token: who.token,
    headers: { 'idempotency-key': randomUUID() },
  });
  if (res.status !== 201 || !res.body.createdId)
    throw new Error(`outbox ${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Every accepted post is served (by whichever replicas the balancer picks). */
async function unreadable(report: LoadReport, who: Actor): Promise<string[]> {
  const missing: string[] = [];
  const queue = [...report.accepted];
  const reader = async () => {
    for (let id = queue.pop(); id; id = queue.pop())
      if ((await api.get(`/posts/${id}`, { token: who.token })).status !== 200) missing.push(id);
  };
  await Promise.all(Array.from({ length: 6 }, reader));
  return missing;
}

beforeAll(async () => {
  // A Redis of this file's own, so the test can restart it.
  redis = await startPrivateRedis();
  // And a RabbitMQ of its own.
  rabbit = await startPrivateRabbitMq();
  cluster = await startCluster({
    redisUrl: redis.url,
    amqpUrl: rabbit.url,
    replicas: REPLICAS,
    backup: true,
    balancer: true,
    startTimeoutMs: 120_000,
    // The load is not a rate-limit test: several writers from one address would be limited.
    env: { RATE_LIMITING_ENABLED: 'false' },
  });
  api = client(cluster.url);
  writers = await Promise.all(Array.from({ length: WRITERS }, (_, i) => registerActor(api, `writer${i}`)));
}, 240_000);

afterAll(async () => {
  if (!cluster) {
    await redis?.stop();
    await rabbit?.remove();
    return;
  }
  const codes = await cluster.stop();
  await redis.stop();
  await rabbit.remove();
  const unclean = Object.entries(codes).filter(([, code]) => code !== 0);
  if (unclean.length)
    throw new Error(`not stopped cleanly by SIGTERM: ${JSON.stringify(unclean)}\n\n${cluster.logs()}`);
});

test('the main story runs through the balancer', async () => {
  const [alice, bob, carol] = (await step('register three users', () =>
    Promise.all(['alice', 'bob', 'carol'].map((n) => registerActor(api, n))),
  )) as [Actor, Actor, Actor];
  const bobFollows = await step('bob follows alice', async () => {
    const me = await api.get<{ user: { following: string } }>('/auth/me', { token: bob.token });
    await send(bob, { type: 'Add', target: me.body.user.following, object: alice.id });
    return me.body.user.following;
  });
  const postId = await step('alice posts to a circle holding bob', async () => {
    const circle = await send(alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'Close' },
    });
    await send(alice, { type: 'Add', target: circle, object: bob.id });
    return send(alice, {
      type: 'Create',
      objectType: 'Post',
      to: circle,
      object: { content: 'Circle only' },
    });
  });
  await step('bob reads it in his timeline; carol cannot reach it', async () => {
    const timeline = await api.get<{ orderedItems: { id: string }[] }>(`/circles/${bobFollows}/posts`, {
      token: bob.token,
    });
    expect(timeline.body.orderedItems.map((p) => p.id)).toContain(postId);
    expect((await api.get(`/posts/${postId}`, { token: carol.token })).status).toBe(404);
  });
  await step('bob replies; alice is notified (social → RabbitMQ → notifications)', async () => {
    await send(bob, { type: 'Reply', to: postId, object: { content: 'Seen it' } });
    await until('a reply notification', 20_000, async () => {
      const res = await api.get<{ orderedItems?: { objectId?: string }[] }>('/notifications?types=reply', {
        token: alice.token,
      });
      return res.body.orderedItems?.some((n) => n.objectId === postId) ? true : undefined;
    });
  });
});

test('live: a post written through one gateway replica reaches a stream held on the other', async () => {
  const [dora, ed] = (await step('register two users; ed follows dora', async () => {
    const pair = await Promise.all(['dora', 'ed'].map((n) => registerActor(api, n)));
    const me = await api.get<{ user: { following: string } }>('/auth/me', { token: pair[1]!.token });
    await send(pair[1]!, { type: 'Add', target: me.body.user.following, object: pair[0]!.id });
    return pair;
  })) as [Actor, Actor];
  const [first, second] = cluster.replicas.gateway.map((g) => g.url) as [string, string];
  // Two streams through the second gateway: its balancing puts them on either notifications
  // replica, and each replica hears every event on a queue of its own.
  const streams = await step('ed opens streams through the second gateway', async () => {
    const opened = await Promise.all([openStream(second, ed.token), openStream(second, ed.token)]);
    for (const s of opened) await s.next((e) => e.event === 'ready', 10_000, 'ready');
    return opened;
  });
  try {
    const postId = await step('dora posts through the first gateway', async () => {
      const res = await client(first).post<{ createdId?: string }>(
        '/outbox',
        { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'Across replicas' } },
        { token: dora.token, headers: { 'idempotency-key': randomUUID() } },
      );
      expect(res.status).toBe(201);
      return res.body.createdId!;
    });
    await step('every stream of ed hears of the post and of his new-posts notification', async () => {
      for (const s of streams) {
        await s.next((e) => e.event === 'post' && e.data.postId === postId, 20_000, 'the post hint');
        await s.next((e) => e.event === 'notification', 20_000, 'the notification hint');
      }
    });
  } finally {
    for (const s of streams) s.close();
  }
});

test('a setting changed through admin is read by every social replica at once (no staleness)', async () => {
  const admin = await api.post<{ token: string }>('/auth/login', CLUSTER_ADMIN);
  const open = async (replica: { url: string }) =>
    ((await (await fetch(`${replica.url}/config.json`)).json()) as { registrationIsOpen: boolean })
      .registrationIsOpen;
  const set = (value: boolean) =>
    api.call('PATCH', '/admin/settings/registrationIsOpen', { token: admin.body.token, body: { value } });
  // Both replicas read (and cache) the setting first.
  expect(await Promise.all(cluster.replicas.social.map(open))).toEqual([true, true]);
  expect((await set(false)).status).toBe(200);
  // docs/operations.md, "Staleness across replicas": a stamp in Redis, checked on every read.
  expect(await Promise.all(cluster.replicas.social.map(open))).toEqual([false, false]);
  expect((await set(true)).status).toBe(200);
  expect(await Promise.all(cluster.replicas.social.map(open))).toEqual([true, true]);
});

test('SIGKILL of one social replica under load: no accepted write lost, failures bounded', async () => {
  const load = startLoad(api, writers, 'kill');
  await new Promise((r) => setTimeout(r, 1500));
  expect(await cluster.kill('social', 1)).toBe('SIGKILL');
  // The load goes on against the other replica while the killed one starts again.
  await step('relaunch social-2', () => cluster.relaunch('social', 1));
  await new Promise((r) => setTimeout(r, 500));
  const report = await load.stop();
  expect(report.accepted.length).toBeGreaterThan(WRITERS);
  expect(await unreadable(report, writers[0]!)).toEqual([]);
  // At most the request each writer had in flight on the killed replica.
  expect(report.failures.length).toBeLessThanOrEqual(WRITERS);
});

test('rolling restart of every service with SIGTERM under load: every exit 0, no failed request', async () => {
  const failedBefore = cluster.balancer!.failed;
  const load = startLoad(api, writers, 'roll');
  const order: [ClusterMember, number][] = [
    ...(['social', 'federation', 'notifications', 'gateway'] as const).flatMap((n) =>
      [0, 1].map((i) => [n, i] as [ClusterMember, number]),
    ),
    ['admin', 0],
  ];
  const codes: string[] = [];
  for (const [name, i] of order)
    await step(`roll ${name} #${i + 1}`, async () => {
      codes.push(`${name}#${i + 1}=${await cluster.terminate(name, i)}`);
      await cluster.relaunch(name, i);
    });
  const report = await load.stop();
  expect(codes.filter((c) => !c.endsWith('=0'))).toEqual([]);
  expect(report.failures).toEqual([]);
  expect(cluster.balancer!.failed - failedBefore).toBe(0);
  expect(report.accepted.length).toBeGreaterThan(WRITERS);
  expect(await unreadable(report, writers[0]!)).toEqual([]);
}, 300_000);

test('Redis stopped and started again under load: no accepted write lost, every gateway reconnects', async () => {
  const load = startLoad(api, writers, 'redis');
  await new Promise((r) => setTimeout(r, 1000));
  await redis.stop();
  // Caches are skipped and the edge counts in memory while Redis is away (docs/operations.md).
  await new Promise((r) => setTimeout(r, 3000));
  await redis.start();
  await step('every gateway reports Redis connected again', () =>
    Promise.all(
      cluster.replicas.gateway.map((g) =>
        until(`${g.label} redis connected`, 30_000, async () => {
          const res = await fetch(`${g.url}/health`);
          const body = (await res.json()) as { services?: Record<string, string> };
          return body.services?.redis === 'connected' ? true : undefined;
        }),
      ),
    ),
  );
  const report = await load.stop();
  expect(report.failures).toEqual([]);
  expect(report.accepted.length).toBeGreaterThan(WRITERS);
  expect(await unreadable(report, writers[0]!)).toEqual([]);
});

test('RabbitMQ stopped and started again under load: no request fails, nothing lost, consumers resume', async () => {
  const [poster, replier] = (await Promise.all(['poster', 'replier'].map((n) => registerActor(api, n)))) as [
    Actor,
    Actor,
  ];
  const postId = await send(poster, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'Before the broker restarts' },
  });
  const load = startLoad(api, writers, 'rabbitmq');
  await new Promise((r) => setTimeout(r, 1000));
  await rabbit.stop();
  // Accepted while the broker is away: its event (reply.created) waits in the outbox table.
  await send(replier, { type: 'Reply', to: postId, object: { content: 'While the broker is away' } });
  await new Promise((r) => setTimeout(r, 2000));
  await rabbit.start();
  const services = (['social', 'federation', 'notifications', 'admin'] as const).flatMap(
    (n) => cluster.replicas[n],
  );
  await step('every service reports the bus connected again', () =>
    Promise.all(
      services.map((s) =>
        until(`${s.label} bus connected`, 60_000, async () => {
          const body = (await (await fetch(`${s.url}/health`)).json()) as {
            services?: Record<string, string>;
          };
          return body.services?.bus === 'connected' ? true : undefined;
        }),
      ),
    ),
  );
  await step('the reply made while the broker was away becomes a notification', () =>
    until('a reply notification', 60_000, async () => {
      const res = await api.get<{ orderedItems?: { objectId?: string }[] }>('/notifications?types=reply', {
        token: poster.token,
      });
      return res.body.orderedItems?.some((n) => n.objectId === postId) ? true : undefined;
    }),
  );
  const report = await load.stop();
  expect(report.failures).toEqual([]);
  expect(report.accepted.length).toBeGreaterThan(WRITERS);
  expect(await unreadable(report, writers[0]!)).toEqual([]);
}, 240_000);

test('the backup worker stopped mid-job records the job failed and exits 0', async () => {
  const admin = await api.post<{ token: string }>('/auth/login', CLUSTER_ADMIN);
  expect(admin.status).toBe(200);
  const token = admin.body.token;
  // Objects of some size, so the job is still running when SIGTERM comes.
  const storage = createS3Storage({
    endpoint: testEnv.s3Endpoint,
    region: 'us-east-1',
    bucket: cluster.bucket,
    accessKeyId: testEnv.s3AccessKey,
    secretAccessKey: testEnv.s3SecretKey,
    forcePathStyle: true,
  });
  const bulk = Array.from({ length: 4 }, (_, i) => `media/bulk-${i}.bin`);
  for (const key of bulk) await storage.put(key, randomBytes(12 * 1024 * 1024));

  const started = await api.post<{ job: { id: string } }>('/admin/backup', {}, { token });
  expect(started.status).toBe(202);
  const jobId = started.body.job.id;
  type Job = { status: string; error: string | null; progress?: { stage?: string } };
  const job = async () => (await api.get<{ job: Job }>(`/admin/backup/${jobId}`, { token })).body.job;
  await step('the job reaches its objects', () =>
    until('stage objects', 60_000, async () => {
      const j = await job();
      if (j.status === 'done' || j.status === 'failed')
        throw new Error(`job ended before SIGTERM: ${JSON.stringify(j)}`);
      return j.status === 'running' && j.progress?.stage === 'objects' ? j : undefined;
    }),
  );
  expect(await cluster.terminate('backup')).toBe(0);
  expect(await job()).toMatchObject({ status: 'failed', error: 'the worker was shut down during the job' });

  // The slot is free at once: the next backup is accepted and done by the restarted worker
  // (the bulk objects gone, so it is quick).
  for (const key of bulk) await storage.delete(key);
  const next = await api.post<{ job: { id: string } }>('/admin/backup', {}, { token });
  expect(next.status).toBe(202);
  await cluster.relaunch('backup');
  const ended = await until('the next backup to end', 90_000, async () => {
    const res = await api.get<{ job: Job }>(`/admin/backup/${next.body.job.id}`, { token });
    return res.body.job.status === 'done' || res.body.job.status === 'failed' ? res.body.job : undefined;
  });
  expect(ended.status).toBe('done');
});
