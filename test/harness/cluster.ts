/**
 * The cluster of deploy/k8s on one machine: every service in a Node process of its own, started
 * the way the image starts it (`node dist/<service>.js`, deploy/docker-entrypoint.sh) with the
 * environment its Deployment gives it (the ConfigMap, the Secret and the Deployment's own `env`),
 * against the test run's Redis, RabbitMQ and S3 in a vhost, key prefix and bucket of its own, and
 * one SQLite file every process shares. Nothing is shared in memory: what one service needs from
 * another must go through the database, the broker, Redis or HTTP, as it does in production.
 *
 * Options add what the cluster tier and `npm run cluster` need: several replicas of a service
 * (the gateways list every replica in SERVICE_URLS), the backup worker, and a balancer in front
 * of the gateways (scripts/cluster-balancer.ts). Processes are in ./cluster-process.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@agora/common/db';
import { buildAll, isStale } from '../../scripts/build';
import { startBalancer, type Balancer } from '../../scripts/cluster-balancer';
import { createVhost, testEnv, uniqueName } from './env';
import { k8sEnv } from './k8s-env';
import {
  DRAIN_SECONDS,
  launch,
  ready,
  signalGroup,
  stopProcess,
  type ServiceProcess,
} from './cluster-process';

export type { ServiceProcess } from './cluster-process';

/** Start order of docker-compose.yml: social bootstraps settings and keys the others read. */
export const DOMAIN_SERVICES = ['social', 'admin', 'federation', 'notifications'] as const;
export type ClusterService = (typeof DOMAIN_SERVICES)[number] | 'gateway';
/** Every process kind: the services and the backup worker (no HTTP port of its own). */
export type ClusterMember = ClusterService | 'backup';

/** The admin social creates on its first start: ADMIN_USERNAME of the ConfigMap, a test password. */
export const CLUSTER_ADMIN = {
  username: k8sEnv('social').ADMIN_USERNAME!,
  password: 'cluster-admin-password',
};

/** What the backup worker logs once it consumes its queues (it has no /health). */
const BACKUP_READY = 'backup worker ready';

export interface Cluster {
  /** The address a client uses: the balancer if there is one, else the (first) gateway. */
  url: string;
  /** The first replica of each service. */
  processes: Record<ClusterService, ServiceProcess>;
  /** Every replica of each process kind (backup: empty unless started with `backup`). */
  replicas: Record<ClusterMember, ServiceProcess[]>;
  balancer: Balancer | undefined;
  /** The SQLite file every process shares (a test reads stored state through it, as a replica). */
  sqlitePath: string;
  /** The S3 bucket every process uses (on testEnv.s3Endpoint). */
  bucket: string;
  /** The tail of every process's output, for a failure message. */
  logs(n?: number): string;
  /** SIGTERM every process (gateways first), SIGKILL what is left after the grace period. */
  stop(): Promise<Record<string, number | string>>;
  /** Kills one process (SIGKILL: no shutdown code runs) and nothing else; resolves once it is gone. */
  kill(name: ClusterMember, replica?: number): Promise<number | string>;
  /** SIGTERM one process (it drains); resolves with its exit code once it is gone. */
  terminate(name: ClusterMember, replica?: number): Promise<number | string>;
  /** Starts a killed (or stopped) process again with its environment and port; resolves once ready. */
  relaunch(name: ClusterMember, replica?: number): Promise<void>;
}

export interface ClusterOptions {
  startTimeoutMs?: number;
  /** Added to every process's environment (e.g. an OTLP endpoint, as docker-compose sets). */
  env?: Record<string, string>;
  /** Replicas per service (default 1 each). */
  replicas?: Partial<Record<ClusterService, number>>;
  /** Also run the backup worker. */
  backup?: boolean;
  /** A balancer in front of the gateways; `port` fixes its port (default: a free one). */
  balancer?: boolean | { port: number; host?: string };
  /** A data directory to keep (npm run cluster); default: a temporary one removed by `stop()`. */
  dataDir?: string;
  /** A Redis of the caller's (a private one a test restarts); default: the test run's. */
  redisUrl?: string;
  /** A RabbitMQ of the caller's (a private one a test restarts); default: a vhost of the test run's. */
  amqpUrl?: string;
}

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  // scripts/test.sh builds dist/ before jest; this covers running jest directly.
  if (isStale()) await buildAll();
  const startTimeoutMs = opts.startTimeoutMs ?? 60_000;
  const deadline = Date.now() + startTimeoutMs;
  const id = uniqueName('cluster');
  const vhost = opts.amqpUrl ? { url: opts.amqpUrl, remove: () => Promise.resolve() } : await createVhost(id);
  const kinds: ClusterMember[] = [...DOMAIN_SERVICES, 'gateway', ...(opts.backup ? ['backup' as const] : [])];
  const count = (k: ClusterMember) => (k === 'backup' ? 1 : Math.max(1, opts.replicas?.[k] ?? 1));
  const ports = {} as Record<ClusterMember, number[]>;
  for (const k of kinds) ports[k] = await Promise.all(Array.from({ length: count(k) }, () => freePort()));
  // Each process its own Prometheus port (the ConfigMap gives every pod 9464).
  const metricsPorts = {} as Record<ClusterMember, number[]>;
  for (const k of kinds)
    metricsPorts[k] = await Promise.all(Array.from({ length: count(k) }, () => freePort()));
  const local = (port: number) => `http://127.0.0.1:${port}`;
  const serviceUrls = DOMAIN_SERVICES.map((n) => `${n}=${ports[n].map(local).join('|')}`).join(',');

  // What each Deployment sets (test/harness/k8s-env.ts), with what must differ on one machine:
  // one SQLite file for every process instead of the Secret's MongoDB, this run's Redis, RabbitMQ
  // and S3 (a key prefix, vhost and bucket of its own), a port per process on the loopback (pods
  // bind every interface on 8080), and the services' loopback URLs.
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), `${id}-`));
  const sqlitePath = join(dataDir, 'agora.db');
  const bucket = id.replace(/_/g, '-');
  const withoutMongo = (env: Record<string, string>) => {
    const rest = { ...env };
    delete rest.MONGO_URL;
    return rest;
  };
  const envOf = (name: ClusterMember, port: number, metricsPort: number): Record<string, string> => ({
    ...withoutMongo(k8sEnv(name)),
    DATA_DIR: dataDir,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    HOST: '127.0.0.1',
    // Every process on one SQLite file, as SQLite serialises their writers (ADR 0013).
    SQLITE_PATH: sqlitePath,
    REDIS_URL: opts.redisUrl ?? testEnv.redisUrl,
    REDIS_PREFIX: `${id}:`,
    AMQP_URL: vhost.url,
    S3_ENDPOINT: testEnv.s3Endpoint,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY: testEnv.s3AccessKey,
    S3_SECRET_KEY: testEnv.s3SecretKey,
    S3_FORCE_PATH_STYLE: 'true',
    ADMIN_PASSWORD: CLUSTER_ADMIN.password,
    SHUTDOWN_GRACE_SECONDS: String(DRAIN_SECONDS),
    ...(name === 'gateway' ? { SERVICE_URLS: serviceUrls } : {}),
    ...opts.env,
  });

  const replicas = Object.fromEntries(
    (['social', 'admin', 'federation', 'notifications', 'gateway', 'backup'] as const).map((k) => [k, []]),
  ) as unknown as Record<ClusterMember, ServiceProcess[]>;
  const start = (name: ClusterMember, i: number) =>
    (replicas[name][i] = launch(
      name,
      i ? `${name}-${i + 1}` : name,
      envOf(name, ports[name][i]!, metricsPorts[name][i]!),
      ports[name][i]!,
      metricsPorts[name][i]!,
    ));
  const readyBy = (p: ServiceProcess, by: number) =>
    ready(p, by, p.name === 'backup' ? BACKUP_READY : undefined);
  const all = () => Object.values(replicas).flat();
  const logs = (n = 40) =>
    all()
      .map((p) => `----- ${p.label} (pid ${p.pid}, last ${n} lines) -----\n${p.tail(n)}`)
      .join('\n');
  let balancer: Balancer | undefined;
  let stopped: Promise<Record<string, number | string>> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      const codes: Record<string, number | string> = {};
      // The edge first, as a rolling shutdown would, then the services together.
      await balancer?.close();
      await Promise.all(replicas.gateway.map(async (p) => (codes[p.label] = await stopProcess(p))));
      await Promise.all(
        all()
          .filter((p) => p.name !== 'gateway')
          .map(async (p) => (codes[p.label] = await stopProcess(p))),
      );
      await vhost.remove();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return codes;
    })());

  try {
    // Social first: it bootstraps settings and keys the others read.
    await readyBy(start('social', 0), deadline);
    for (const k of kinds) for (let i = 0; i < count(k); i++) if (k !== 'social' || i > 0) start(k, i);
    await Promise.all(all().map((p) => readyBy(p, deadline)));
    if (opts.balancer)
      balancer = await startBalancer(
        replicas.gateway.map((p) => p.url),
        typeof opts.balancer === 'object' ? opts.balancer : {},
      );
  } catch (err) {
    const message = `${(err as Error).message}\n${logs()}`;
    await stop();
    throw new Error(message);
  }
  const first = {} as Record<ClusterService, ServiceProcess>;
  for (const k of [...DOMAIN_SERVICES, 'gateway' as const])
    Object.defineProperty(first, k, { enumerable: true, get: () => replicas[k][0] });
  return {
    url: balancer?.url ?? replicas.gateway[0]!.url,
    processes: first,
    replicas,
    balancer,
    sqlitePath,
    bucket,
    logs,
    stop,
    async kill(name, i = 0) {
      signalGroup(replicas[name][i]!.pid, 'SIGKILL');
      return replicas[name][i]!.exited;
    },
    terminate: (name, i = 0) => stopProcess(replicas[name][i]!),
    async relaunch(name, i = 0) {
      await readyBy(start(name, i), Date.now() + startTimeoutMs);
    },
  };
}
