/**
 * The cluster beside standalone, in one run (issue 25): `POST /outbox` and a circle timeline
 * (`GET /circles/:id/posts`) at the same connections, alternating rounds, on the same machine.
 *
 * - standalone: `node dist/standalone.js` (npm start's process: SQLite in-process, in-process
 *   bus, no Redis), rate limits off, logs at `error`;
 * - cluster: `npm run cluster`'s layout (test/harness/cluster.ts: two replicas of the gateway,
 *   social, federation and notifications, admin, the balancer in front (no backup worker), one
 *   SQLite file shared by every process, this run's Redis and RabbitMQ), rate limits off, logs
 *   at `warn` (the harness reads `info` lines only for the backup worker's readiness).
 *
 * Both get the same data through the API: a writer, a reader following it (the Following circle
 * is the timeline read), `--posts` posts by the writer first.
 *
 *   npm run bench -- --cluster [--rounds=3] [--seconds=8] [--connections=10] [--posts=300]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startCluster } from '../test/harness/cluster';
import { postingNotes } from './embedded';
import { median, round, type Round } from './load';
import { buildIfStale, startProduction } from './production';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '10' },
    posts: { type: 'string', default: '300' },
    cluster: { type: 'boolean', default: false },
  },
});

interface Target {
  name: string;
  url: string;
  writer: string;
  reader: string;
  circle: string;
}

async function call<T>(url: string, method: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Two users through the API, the reader following the writer, `posts` posts by the writer. */
async function prepare(name: string, url: string, posts: number): Promise<Target> {
  const register = async (username: string) => {
    const { token } = await call<{ token: string }>(`${url}/register`, 'POST', {
      username,
      password: 'bench-password-1',
    });
    const me = await call<{ user: { id: string; following: string } }>(
      `${url}/auth/me`,
      'GET',
      undefined,
      token,
    );
    return { token, id: me.user.id, following: me.user.following };
  };
  const writer = await register('writer');
  const reader = await register('reader');
  await call(
    `${url}/outbox`,
    'POST',
    { type: 'Add', target: reader.following, object: writer.id },
    reader.token,
  );
  for (let i = 0; i < posts; i++)
    await call(
      `${url}/outbox`,
      'POST',
      { type: 'Create', objectType: 'Post', to: '@public', object: { content: `seed ${i}` } },
      writer.token,
    );
  return { name, url, writer: writer.token, reader: reader.token, circle: reader.following };
}

function fmt(rs: Round[]): string {
  const p50 = median(rs.map((r) => r.p50));
  const rps = median(rs.map((r) => r.rps));
  const failed = rs.reduce((n, r) => n + r.failed, 0);
  return `p50 ${p50.toFixed(1)} ms (${rs.map((r) => r.p50.toFixed(0)).join('/')}), ${rps.toFixed(0)} req/s (${rs.map((r) => r.rps.toFixed(0)).join('/')}), failed ${failed}`;
}

async function main(): Promise<void> {
  const connections = Number(values.connections);
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const posts = Number(values.posts);
  buildIfStale('.');
  const open = { RATE_LIMITING_ENABLED: 'false' };
  const standalone = await startProduction('.', mkdtempSync(join(tmpdir(), 'agora-bench-standalone-')), open);
  const cluster = await startCluster({
    replicas: { gateway: 2, social: 2, federation: 2, notifications: 2 },
    // The backup worker is not on the request path; it is left out.
    balancer: true,
    startTimeoutMs: 180_000,
    env: { ...open, LOG_LEVEL: 'warn' },
  });
  try {
    const targets = [
      await prepare('standalone', standalone.gateway, posts),
      await prepare('cluster', cluster.url, posts),
    ];
    const results: Record<string, { outbox: Round[]; timeline: Round[] }> = {};
    for (const t of targets) results[t.name] = { outbox: [], timeline: [] };
    console.log(
      `load average at start: ${(await import('node:os'))
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    for (let r = 0; r < rounds; r++)
      for (const t of r % 2 ? [...targets].reverse() : targets) {
        results[t.name]!.outbox.push(
          await round(`${t.url}/outbox`, {
            connections,
            seconds,
            headers: { authorization: `Bearer ${t.writer}`, 'content-type': 'application/json' },
            ...postingNotes(`bench ${t.name}`),
          }),
        );
        results[t.name]!.timeline.push(
          await round(`${t.url}/circles/${encodeURIComponent(t.circle)}/posts?limit=20`, {
            connections,
            seconds,
            headers: { authorization: `Bearer ${t.reader}`, accept: 'application/json' },
          }),
        );
      }
    console.log(
      `load average at end: ${(await import('node:os'))
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
    );
    console.log(`${connections} connections, ${seconds} s rounds, ${rounds} rounds each (median, per round)`);
    for (const t of targets) {
      console.log(`${t.name.padEnd(10)} POST /outbox            ${fmt(results[t.name]!.outbox)}`);
      console.log(`${t.name.padEnd(10)} GET /circles/:id/posts  ${fmt(results[t.name]!.timeline)}`);
    }
  } finally {
    await standalone.stop();
    await cluster.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
