/**
 * `npm run cluster` (scripts/cluster.sh starts the S3 server and exports where it is): starts
 * the cluster of test/harness/cluster.ts with the replicas of docs/operations.md and waits for
 * Ctrl-C. The environment is deploy/k8s's; DOMAIN and PUBLIC_URL may be overridden, and default
 * to this machine (`localhost:<PORT>`).
 */
import { CLUSTER_ADMIN, startCluster } from '../test/harness/cluster';

export const CLUSTER_REPLICAS = { gateway: 2, social: 2, federation: 2, notifications: 2 } as const;

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  const domain = process.env.DOMAIN ?? `localhost:${port}`;
  const cluster = await startCluster({
    replicas: CLUSTER_REPLICAS,
    backup: true,
    balancer: { port },
    startTimeoutMs: 120_000,
    env: {
      DOMAIN: domain,
      PUBLIC_URL: process.env.PUBLIC_URL ?? `http://${domain}`,
      ...(process.env.LOG_LEVEL ? { LOG_LEVEL: process.env.LOG_LEVEL } : {}),
    },
  });
  const table = Object.values(cluster.replicas)
    .flat()
    .map(
      (p) =>
        `  ${p.label.padEnd(16)} pid ${String(p.pid).padEnd(8)} ${p.name === 'backup' ? '(worker)' : p.url}`,
    )
    .join('\n');
  console.log(
    `Agora cluster is running at ${cluster.url}\n${table}\n` +
      `  admin: ${CLUSTER_ADMIN.username} / ${CLUSTER_ADMIN.password}\n` +
      `  database: ${cluster.sqlitePath}\nCtrl-C stops every process.`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping (SIGTERM to every process, gateways first)');
    void cluster.stop().then((codes) => {
      console.log(`stopped: ${JSON.stringify(codes)}`);
      const unclean = Object.values(cluster.replicas)
        .flat()
        .filter((p) => codes[p.label] !== 0);
      for (const p of unclean) console.log(`----- ${p.label} (exit ${codes[p.label]}) -----\n${p.tail(20)}`);
      process.exit(unclean.length ? 1 : 0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
