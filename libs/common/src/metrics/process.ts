/**
 * The process's metrics endpoint, from its entry point (boot.ts for each service, standalone's
 * main.ts for the all-in-one process): started when METRICS_PORT is set, and unreferenced, so it
 * never holds a process open that has finished draining.
 */
import type { Config } from '../config/schema';
import { startMetricsServer, type MetricsServer } from './server';

export async function serveMetrics(config: Config): Promise<MetricsServer | undefined> {
  if (!config.METRICS_PORT) return undefined;
  const server = await startMetricsServer(config.METRICS_PORT, config.HOST);
  server.unref();
  return server;
}
