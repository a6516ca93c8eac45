/**
 * `npm run bench -- --federation` (issue 23): the standalone as `npm start` runs it (SQLite in the
 * process, in a data directory of its own, shipped federation defaults: breaker and retries on)
 * in its own process, and on this side 100 fake peers, each a loopback HTTP server of its own
 * domain that publishes a key and verifies the signature of every delivery it receives.
 *
 * 1. Fan-out: 10 users of each peer follow alice (1,000 signed Follows, each naming its own
 *    inbox), then alice posts once in public; reported is the time from her POST /outbox to the
 *    1,000th verified Create of that post in a follower inbox, with duplicates and refusals.
 * 2. Inbox: accepted activities per second, signed POST /inbox of distinct activities
 *    (bench/inbox.ts) against the same standalone's federation service.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createStores, openDatabase } from '@agora/common/db';
import { memoryReplayGuard, signRequest, verifyRequest } from '@agora/common/federation';
import { createLogger } from '@agora/common/logger';
import { median, spread } from './load';
import { PEER as INBOX_PEER, benchInbox, startBenchPeer } from './inbox';

const { values } = parseArgs({
  options: {
    peers: { type: 'string', default: '100' },
    perPeer: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '4,20' },
    timeout: { type: 'string', default: '300' },
  },
});
const PEERS = Number(values.peers);
const PER_PEER = Number(values.perPeer);
const DOMAIN = 'bench.test';
const silent = createLogger({ level: 'silent', service: 'bench' });

interface Sink {
  domain: string;
  address: string;
  keyId: string;
  privateKeyPem: string;
  close(): void;
}

/** What the sinks saw, across all of them. */
const seen = {
  /** inbox URL → how many verified Creates of the watched post it received. */
  creates: new Map<string, number>(),
  /** ms since the post was sent, at each first arrival. */
  arrivals: [] as number[],
  t0: 0,
  refused: 0,
  /** The object ids of the Creates received (one expected: the post). */
  ids: new Set<string>(),
  serverKeyPem: '',
  done: undefined as undefined | (() => void),
};

async function startSink(i: number): Promise<Sink> {
  const domain = `peer${i}.bench.test`;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const actor = `http://${domain}/actor`;
  const doc = JSON.stringify({
    id: actor,
    type: 'Application',
    publicKey: {
      id: `${actor}#main-key`,
      owner: actor,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  });
  const replay = memoryReplayGuard();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/actor')
        return void res.writeHead(200, { 'content-type': 'application/activity+json' }).end(doc);
      if (req.method !== 'POST') return void res.writeHead(404).end();
      const rawBody = Buffer.concat(chunks);
      verifyRequest({
        method: 'POST',
        path: req.url ?? '/',
        headers: req.headers,
        rawBody,
        replay,
        resolveKey: () => Promise.resolve({ publicKeyPem: seen.serverKeyPem, ownerDomain: DOMAIN }),
      }).then(
        () => {
          res.writeHead(202).end();
          const a = JSON.parse(rawBody.toString()) as { type?: string; object?: { id?: string } };
          // Only one post is made while the sinks listen: every Create is of it (its id is known
          // only once POST /outbox answered, after the first deliveries may have arrived).
          if (a.type !== 'Create' || !a.object?.id) return;
          seen.ids.add(a.object.id);
          const inbox = `http://${domain}${req.url}`;
          if (!seen.creates.has(inbox)) seen.arrivals.push(Date.now() - seen.t0);
          seen.creates.set(inbox, (seen.creates.get(inbox) ?? 0) + 1);
          if (seen.creates.size === PEERS * PER_PEER) seen.done?.();
        },
        () => {
          seen.refused++;
          res.writeHead(401).end();
        },
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    domain,
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    keyId: `${actor}#main-key`,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    close: () => server.close(),
  };
}

/** bench/server.ts (the standalone wiring) on SQLite in `dataDir`, in its own process. */
async function startStandalone(dataDir: string, hostMap: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'server.ts')], {
    env: {
      PATH: process.env.PATH,
      DOMAIN,
      PUBLIC_URL: `http://${DOMAIN}`,
      DATA_DIR: dataDir,
      ADMIN_USERNAME: 'bench_admin',
      ADMIN_PASSWORD: 'bench-password',
      RATE_LIMITING_ENABLED: 'false',
      FEDERATION_ALLOW_PRIVATE: 'true',
      FEDERATION_HOST_MAP: hostMap,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`bench server exited ${c}`)));
  });
  const urls = JSON.parse(line) as { gateway: string; services: Record<string, string>; sqlitePath: string };
  return { ...urls, stop: () => child.kill('SIGTERM') };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main(): Promise<void> {
  const t = Date.now();
  const sinks: Sink[] = [];
  for (let i = 0; i < PEERS; i++) sinks.push(await startSink(i));
  const inboxPeer = await startBenchPeer();
  console.log(`# Federation benchmarks (${new Date().toISOString()}, Node ${process.version})`);
  console.log(`${PEERS} peers started in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const hostMap = [
    ...sinks.map((s) => `${s.domain}=${s.address}`),
    `${INBOX_PEER}=${inboxPeer.address}`,
  ].join(',');
  const dataDir = mkdtempSync(join(tmpdir(), 'agora-bench-fed-'));
  const server = await startStandalone(dataDir, hostMap);
  const db = await openDatabase({ logger: silent, sqlitePath: server.sqlitePath });
  try {
    const federation = server.services.federation!;
    const actorDoc = await fetch(`${server.gateway}/users/${encodeURIComponent(`@${DOMAIN}`)}`, {
      headers: { accept: 'application/activity+json' },
    });
    seen.serverKeyPem = (
      (await actorDoc.json()) as { publicKey: { publicKeyPem: string } }
    ).publicKey.publicKeyPem;
    const { token } = (await post(`${server.gateway}/register`, {
      username: 'alice',
      password: 'password123',
    })) as { token: string };
    const alice = `@alice@${DOMAIN}`;

    // 1,000 follows, each a signed Follow from its peer naming the follower's own inbox.
    let t0 = Date.now();
    const follows = sinks.flatMap((s) =>
      Array.from({ length: PER_PEER }, (_, j) => async () => {
        const user = `@f${j}@${s.domain}`;
        const body = JSON.stringify({
          id: `http://${s.domain}/activities/follow-${j}`,
          type: 'Follow',
          actorId: user,
          actor: { id: user, inbox: `http://${s.domain}/users/f${j}/inbox` },
          object: alice,
        });
        const url = `${federation}/inbox`;
        const headers = signRequest({
          method: 'POST',
          url,
          body,
          keyId: s.keyId,
          privateKeyPem: s.privateKeyPem,
        });
        const res = await fetch(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/activity+json' },
          body,
        });
        if (res.status !== 202) throw new Error(`Follow ${user}: ${res.status} ${await res.text()}`);
      }),
    );
    for (let i = 0; i < follows.length; i += 20) await Promise.all(follows.slice(i, i + 20).map((f) => f()));
    const stores = createStores(db, DOMAIN);
    await until(
      '1,000 followers recorded',
      async () => (await stores.followers.ofUser(alice)).length === PEERS * PER_PEER,
      120_000,
    );
    console.log(
      `\n## Fan-out: one public post to ${PEERS * PER_PEER} follower inboxes on ${PEERS} peers (SQLite standalone, breaker and retries on)`,
    );
    console.log(
      `${PEERS * PER_PEER} signed Follows accepted and applied in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const delivered = new Promise<void>((resolve) => (seen.done = resolve));
    t0 = Date.now();
    seen.t0 = t0;
    const created = await fetch(`${server.gateway}/outbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        type: 'Create',
        objectType: 'Post',
        to: '@public',
        object: { content: 'fan-out' },
      }),
    });
    const postId = ((await created.json()) as { createdId: string }).createdId;
    const answered = Date.now() - t0;
    const timeout = setTimeout(() => seen.done?.(), Number(values.timeout) * 1000);
    await delivered;
    clearTimeout(timeout);
    const took = (Date.now() - t0) / 1000;
    const copies = [...seen.creates.values()];
    const duplicates = copies.reduce((n, c) => n + c - 1, 0);
    console.log(
      `POST /outbox answered in ${answered} ms; ${seen.creates.size} of ${PEERS * PER_PEER} inboxes had the Create (signature verified) after ${took.toFixed(1)} s (${(seen.creates.size / took).toFixed(0)} deliveries/s); duplicates ${duplicates}; refused signatures ${seen.refused}`,
    );
    if (seen.ids.size !== 1 || !seen.ids.has(postId))
      console.log(`WARNING: Creates of ${JSON.stringify([...seen.ids])}, the post is ${postId}`);
    const at = (q: number) =>
      `${(seen.arrivals[Math.ceil(q * seen.arrivals.length) - 1]! / 1000).toFixed(1)} s`;
    console.log(
      `first arrival ${at(0.001)}, half ${at(0.5)}, 90% ${at(0.9)}, 99% ${at(0.99)}, last ${at(1)}`,
    );
    for (const s of sinks) {
      const got = [...seen.creates.keys()].filter((k) => k.startsWith(`http://${s.domain}/`)).length;
      if (got === PER_PEER) continue;
      const dead = await stores.parkedDeliveries.deadOf(s.domain, 20);
      console.log(
        `WARNING: ${s.domain} got ${got}; held ${await stores.parkedDeliveries.count(s.domain, 'held')}, dead ${dead.length}: ${JSON.stringify(dead[0])}`,
      );
    }
    await until(
      'nothing held',
      async () =>
        (await Promise.all(sinks.map((s) => stores.parkedDeliveries.count(s.domain, 'held')))).every(
          (n) => n === 0,
        ),
      60_000,
    );

    console.log(
      `\n## POST /inbox: accepted activities per second (SQLite standalone, signed, distinct activities)`,
    );
    console.log('| connections | accepted/s (median) | p50 | p97.5 (spread) | non-2xx |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const connections of values.connections.split(',').map(Number)) {
      const rounds = [];
      for (let i = 0; i < Number(values.rounds); i++)
        rounds.push(await benchInbox(federation, Number(values.seconds), connections));
      console.log(
        `| ${connections} | ${median(rounds.map((r) => r.rps)).toFixed(0)} | ${median(rounds.map((r) => r.p50))} ms | ${median(rounds.map((r) => r.p97))} ms (${spread(rounds.map((r) => r.p97))}) | ${rounds.reduce((n, r) => n + r.bad, 0)} |`,
      );
    }
  } finally {
    await db.close();
    server.stop();
    inboxPeer.close();
    for (const s of sinks) s.close();
    await new Promise((r) => setTimeout(r, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
