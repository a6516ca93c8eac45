/**
 * The cluster of deploy/k8s on one machine: every service in a Node process of its own, started
 * the way the image starts it (`node dist/<service>.js`, deploy/docker-entrypoint.sh) with the
 * environment its Deployment gives it (the ConfigMap, the Secret and the Deployment's own `env`),
 * against the test run's FerretDB, Redis, RabbitMQ and S3 in a database, vhost, key prefix and
 * bucket of its own. Nothing is shared in memory: what one service needs from another must go
 * through the database, the broker, Redis or HTTP, as it does in production.
 *
 * Each process leads its own process group, so stopping it ends anything it started; `stop()`
 * sends SIGTERM (the services drain, as under Kubernetes) and SIGKILL after a grace period, and
 * an exit hook kills whatever is left if the test process ends first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@agora/common/db';
import { buildAll, isStale } from '../../scripts/build';
import { createVhost, testEnv, uniqueName } from './env';
import { k8sEnv } from './k8s-env';

const ROOT = join(__dirname, '..', '..');

/** Start order of docker-compose.yml: social bootstraps settings and keys the others read. */
export const DOMAIN_SERVICES = ['social', 'admin', 'federation', 'notifications'] as const;
export type ClusterService = (typeof DOMAIN_SERVICES)[number] | 'gateway';

/** The admin social creates on its first start: ADMIN_USERNAME of the ConfigMap, a test password. */
export const CLUSTER_ADMIN = {
  username: k8sEnv('social').ADMIN_USERNAME!,
  password: 'cluster-admin-password',
};

/** Lines of output kept per process (the tail printed when a step fails). */
const KEEP_LINES = 400;
/** The Deployments' terminationGracePeriodSeconds is 30; a test waits less before SIGKILL. */
const GRACE_MS = 10_000;

export interface ServiceProcess {
  name: ClusterService;
  url: string;
  /** Its Prometheus endpoint (METRICS_PORT, a port of its own per process). */
  metricsUrl: string;
  pid: number;
  /** The last `n` lines the process wrote (stdout and stderr interleaved). */
  tail(n?: number): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<number | string>;
}

export interface Cluster {
  /** The gateway: the only address a client uses. */
  url: string;
  processes: Record<ClusterService, ServiceProcess>;
  /** The SQLite file every process shares (a test reads stored state through it, as a replica). */
  sqlitePath: string;
  /** The tail of every process's output, for a failure message. */
  logs(n?: number): string;
  /** SIGTERM every process (gateway first), SIGKILL what is left after the grace period. */
  stop(): Promise<Record<ClusterService, number | string>>;
  /** Kills one process (SIGKILL: no shutdown code runs) and nothing else; resolves once it is gone. */
  kill(name: ClusterService): Promise<number | string>;
  /** Starts a killed (or stopped) process again with its environment and port; resolves once healthy. */
  relaunch(name: ClusterService): Promise<void>;
}

/** Runs `node dist/<service>.js` in a process group of its own and keeps its output. */
function launch(
  name: ClusterService,
  env: Record<string, string>,
  port: number,
  metricsPort: number,
): ServiceProcess {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist', `${name}.js`)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const lines: string[] = [];
  let partial = '';
  const keep = (b: Buffer) => {
    const parts = (partial + b.toString()).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    if (lines.length > KEEP_LINES) lines.splice(0, lines.length - KEEP_LINES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  live.add(child);
  void exited.then(() => live.delete(child));
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    pid: child.pid!,
    exited,
    tail: (n = 60) => [...lines, ...(partial ? [partial] : [])].slice(-n).join('\n'),
  };
}

/** Children still running, killed (whole groups) if the test process exits before `stop()`. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) signalGroup(child.pid, 'SIGKILL');
});

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

async function stopProcess(p: ServiceProcess): Promise<number | string> {
  signalGroup(p.pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(p.pid, 'SIGKILL'), GRACE_MS);
  const result = await p.exited;
  clearTimeout(timer);
  // The process is gone; anything it left in its group goes too.
  signalGroup(p.pid, 'SIGKILL');
  return result;
}

/** Polls GET /health until it answers 200; fails at once if the process exits. */
async function healthy(p: ServiceProcess, deadlineMs: number): Promise<void> {
  let exitedWith: number | string | undefined;
  void p.exited.then((c) => (exitedWith = c));
  let last = 'no answer';
  while (Date.now() < deadlineMs) {
    if (exitedWith !== undefined) throw new Error(`${p.name} exited (${exitedWith}) before it was healthy`);
    try {
      const res = await fetch(`${p.url}/health`, { signal: AbortSignal.timeout(2000) });
      last = `${res.status} ${await res.text()}`;
      if (res.status === 200) return;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${p.name}: GET /health not 200 in time (last: ${last})`);
}

export interface ClusterOptions {
  startTimeoutMs?: number;
  /** Added to every process's environment (e.g. an OTLP endpoint, as docker-compose sets). */
  env?: Record<string, string>;
}

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  // scripts/test.sh builds dist/ before jest; this covers running jest directly.
  if (isStale()) await buildAll();
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  const id = uniqueName('cluster');
  const vhost = await createVhost(id);
  const ports = Object.fromEntries(
    await Promise.all(
      [...DOMAIN_SERVICES, 'gateway' as const].map(async (n) => [n, await freePort()] as const),
    ),
  ) as Record<ClusterService, number>;
  const metricsPorts = Object.fromEntries(
    await Promise.all(
      [...DOMAIN_SERVICES, 'gateway' as const].map(async (n) => [n, await freePort()] as const),
    ),
  ) as Record<ClusterService, number>;
  const serviceUrls = DOMAIN_SERVICES.map((n) => `${n}=http://127.0.0.1:${ports[n]}`).join(',');

  // What each Deployment sets (test/harness/k8s-env.ts), with what must differ on one machine:
  // one SQLite file for every process instead of the Secret's MongoDB, this run's Redis, RabbitMQ
  // and S3 (a key prefix, vhost and bucket of its own), a port per process on the loopback (pods
  // bind every interface on 8080), and the services' loopback URLs.
  const dataDir = mkdtempSync(join(tmpdir(), `${id}-`));
  const sqlitePath = join(dataDir, 'agora.db');
  const withoutMongo = (env: Record<string, string>) => {
    const rest = { ...env };
    delete rest.MONGO_URL;
    return rest;
  };
  const envOf = (name: ClusterService): Record<string, string> => ({
    ...withoutMongo(k8sEnv(name)),
    DATA_DIR: dataDir,
    PORT: String(ports[name]),
    METRICS_PORT: String(metricsPorts[name]),
    HOST: '127.0.0.1',
    // Every process on one SQLite file, as SQLite serialises their writers (ADR 0013).
    SQLITE_PATH: sqlitePath,
    REDIS_URL: testEnv.redisUrl,
    REDIS_PREFIX: `${id}:`,
    AMQP_URL: vhost.url,
    S3_ENDPOINT: testEnv.s3Endpoint,
    S3_BUCKET: id.replace(/_/g, '-'),
    S3_ACCESS_KEY: testEnv.s3AccessKey,
    S3_SECRET_KEY: testEnv.s3SecretKey,
    S3_FORCE_PATH_STYLE: 'true',
    ADMIN_PASSWORD: CLUSTER_ADMIN.password,
    ...(name === 'gateway' ? { SERVICE_URLS: serviceUrls } : {}),
    ...opts.env,
  });

  const processes = {} as Record<ClusterService, ServiceProcess>;
  const all = () => Object.values(processes);
  const logs = (n = 40) =>
    all()
      .map((p) => `----- ${p.name} (pid ${p.pid}, last ${n} lines) -----\n${p.tail(n)}`)
      .join('\n');
  let stopped: Promise<Record<ClusterService, number | string>> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      const codes = {} as Record<ClusterService, number | string>;
      // The edge first, as a rolling shutdown would, then the services together.
      if (processes.gateway) codes.gateway = await stopProcess(processes.gateway);
      await Promise.all(
        all()
          .filter((p) => p.name !== 'gateway')
          .map(async (p) => (codes[p.name] = await stopProcess(p))),
      );
      await vhost.remove();
      rmSync(dataDir, { recursive: true, force: true });
      return codes;
    })());

  try {
    processes.social = launch('social', envOf('social'), ports.social, metricsPorts.social);
    await healthy(processes.social, deadline);
    for (const n of [...DOMAIN_SERVICES.slice(1), 'gateway' as const])
      processes[n] = launch(n, envOf(n), ports[n], metricsPorts[n]);
    await Promise.all(all().map((p) => healthy(p, deadline)));
  } catch (err) {
    const message = `${(err as Error).message}\n${logs()}`;
    await stop();
    throw new Error(message);
  }
  return {
    url: processes.gateway.url,
    processes,
    sqlitePath,
    logs,
    stop,
    async kill(name) {
      signalGroup(processes[name].pid, 'SIGKILL');
      return processes[name].exited;
    },
    async relaunch(name) {
      processes[name] = launch(name, envOf(name), ports[name], metricsPorts[name]);
      await healthy(processes[name], Date.now() + (opts.startTimeoutMs ?? 60_000));
    },
  };
}
