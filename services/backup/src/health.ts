/**
 * GET /health of the backup worker run as its own process (deploy/k8s/base/backup.yaml probes it):
 * 200 while its database answers, 503 otherwise, with the bus state, as every service's
 * /health (spec 4.1). Nothing else is served: the worker has no routes. In standalone mode the
 * gateway's port answers for every service, so this server is not started there. The port is
 * opened by `createService` (`portApp`), answering "starting" until the worker has started.
 */
import { healthHandler, notFoundJson, type Probe } from '@agora/common/http';
import type { EngineKind } from '@agora/common/db/engine';
import express, { type Express } from 'express';

/** `probes`: `mongodb` (the database on either engine; critical) and `bus`, built by app.ts from the runtime. */
export function healthApp(probes: Record<string, Probe>, engine: EngineKind): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/health', healthHandler(probes, { critical: ['mongodb'], info: { engine } }));
  app.use(notFoundJson);
  return app;
}
