/**
 * GET /health of the backup worker run as its own process (deploy/k8s/base/backup.yaml probes it):
 * 200 while its database answers, 503 otherwise, with the bus state, as every service's
 * /health (spec 4.1). Nothing else is served: the worker has no routes. In standalone mode the
 * gateway's port answers for every service, so this server is not started there.
 */
import { healthHandler, listen, notFoundJson, type Probe, type RunningServer } from '@agora/common/http';
import type { EngineKind } from '@agora/common/db/engine';
import express from 'express';

/** `probes`: `mongodb` (the database on either engine; critical) and `bus`, built by app.ts from the runtime. */
export function serveHealth(
  probes: Record<string, Probe>,
  engine: EngineKind,
  port: number,
  host: string,
): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/health', healthHandler(probes, { critical: ['mongodb'], info: { engine } }));
  app.use(notFoundJson);
  return listen(app, port, host);
}
