/**
 * Two compiled standalone servers (dist/standalone.js, test/harness/compiled.ts) federating for
 * real: each a child process with its own SQLite data directory and domain, reaching the other by
 * name through FEDERATION_HOST_MAP, signing with its own key. Each keeps its port and data
 * directory across a kill and a restart, so the other still reaches it. A test reads what a
 * server stored through a second connection to its SQLite file (the engine port and the stores),
 * as a second replica would: "the server stored nothing" is asserted there, not on its HTTP
 * answers alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createStores,
  freePort,
  openDatabase,
  STORE_SPECS,
  type Database,
  type Stores,
} from '@agora/common/db';
import type { Doc } from '@agora/common/db/engine';
import { createLogger } from '@agora/common/logger';
import { call, startCompiled, type Answer, type CompiledServer } from './compiled';
import { allStored } from './stored';

export interface Peer {
  /** `a.test` style domain; its users are `@name@<domain>`. */
  domain: string;
  port: number;
  dataDir: string;
  url: string;
  /** The running process (replaced by `restart`). */
  server: CompiledServer;
  /** A second connection to its SQLite file, and its stores over it. */
  db: Database;
  stores: Stores;
  /** SIGKILL of the whole process group: no shutdown code runs. */
  kill(): Promise<void>;
  /** Started again on the same port and data directory; resolves once it serves. */
  restart(): Promise<void>;
  /** Every stored document of a collection (`posts`, `activities`, …), read through the port. */
  stored<T extends Doc = Doc & Record<string, unknown>>(collection: string): Promise<T[]>;
  /** A JSON call to this server (throws nothing; the status and parsed body). */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown },
  ): Promise<Answer<T>>;
}

export interface Pair {
  a: Peer;
  b: Peer;
  close(): Promise<void>;
}

const silent = createLogger({ level: 'silent', service: 'test' });

/** Starts A and B (in parallel), each knowing the other by name. `env` is added to both. */
export async function startPair(
  domains: [string, string] = ['a.test', 'b.test'],
  env: Record<string, string> = {},
): Promise<Pair> {
  const ports = [await freePort(), await freePort()] as const;
  const envOf = (i: 0 | 1): Record<string, string> => {
    const other = (1 - i) as 0 | 1;
    return {
      DOMAIN: domains[i],
      PUBLIC_URL: `http://${domains[i]}`,
      PORT: String(ports[i]),
      FEDERATION_ALLOW_PRIVATE: 'true',
      FEDERATION_HOST_MAP: `${domains[other]}=127.0.0.1:${ports[other]}`,
      ...env,
    };
  };
  const [a, b] = await Promise.all([startPeer(domains[0], envOf(0)), startPeer(domains[1], envOf(1))]);
  return {
    a,
    b,
    async close() {
      await Promise.all([a, b].map(closePeer));
    },
  };
}

async function startPeer(domain: string, env: Record<string, string>): Promise<Peer> {
  const dataDir = mkdtempSync(join(tmpdir(), `agora-fed-${domain}-`));
  const server = await startCompiled({ env, dataDir });
  const db = await openDatabase({ logger: silent, sqlitePath: join(dataDir, 'agora.db') });
  const peer: Peer = {
    domain,
    port: server.port,
    dataDir,
    url: server.url,
    server,
    db,
    stores: createStores(db, domain),
    async kill() {
      process.kill(-peer.server.pid, 'SIGKILL');
      await peer.server.exited;
    },
    async restart() {
      peer.server = await startCompiled({ env, dataDir });
    },
    async stored<T extends Doc>(collection: string) {
      const spec = STORE_SPECS.find((s) => s.name === collection);
      if (!spec) throw new Error(`no store collection named ${collection}`);
      return allStored<T>(db.engine, spec);
    },
    call: (method, path, opts) => call(peer.server, method, path, opts),
  };
  return peer;
}

async function closePeer(peer: Peer): Promise<void> {
  await peer.server.stop();
  await peer.db.close();
  rmSync(peer.dataDir, { recursive: true, force: true });
}

/** Registers `username` on the peer; its token and actor id. Throws with the answer otherwise. */
export async function register(peer: Peer, username: string): Promise<{ token: string; id: string }> {
  const res = await peer.call<{ token?: string }>('POST', '/register', {
    body: { username, password: 'password123' },
  });
  if (res.status !== 201 || !res.body.token)
    throw new Error(`register ${username} on ${peer.domain}: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token, id: `@${username}@${peer.domain}` };
}

/** POST /outbox as `token`; the created id. Throws with the answer unless it is 201. */
export async function act(peer: Peer, token: string, activity: Record<string, unknown>): Promise<string> {
  const res = await peer.call<{ createdId?: string }>('POST', '/outbox', { token, body: activity });
  if (res.status !== 201)
    throw new Error(`${String(activity.type)} on ${peer.domain}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId ?? '';
}
