/** GET /__routes and GET /health across every service. */
import type { RequestHandler } from 'express';
import { dedupeSort, type RouteEntry } from '@agora/common/http';
import type { ServiceName } from '@agora/common/routing';

async function getJson(url: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json' },
  });
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

export function routesHandler(targets: Record<ServiceName, string>): RequestHandler {
  return (_req, res, next) => {
    Promise.all(
      Object.values(targets).map((url) =>
        getJson(`${url}/__routes`, 5000).then((r) => (r.body as { routes?: RouteEntry[] }).routes ?? []),
      ),
    )
      .then((lists) => {
        const routes = dedupeSort([...lists.flat(), { methods: ['GET'], path: '/health' }]).filter(
          (r) => r.path !== '/__routes',
        );
        res.json({ total: routes.length, routes });
      })
      .catch(next);
  };
}

interface ServiceHealth {
  status?: string;
  services?: Record<string, string>;
}

export function healthAggregate(
  targets: Record<ServiceName, string>,
  extra: Record<string, () => Promise<{ ok: boolean }>>,
): RequestHandler {
  return (_req, res) => {
    const names = Object.keys(targets) as ServiceName[];
    void Promise.all([
      Promise.all(
        names.map((n) => getJson(`${targets[n]}/health`, 3000).catch(() => ({ status: 0, body: {} }))),
      ),
      Promise.all(
        Object.entries(extra).map(
          async ([k, probe]) => [k, await probe().catch(() => ({ ok: false }))] as const,
        ),
      ),
    ]).then(([results, extras]) => {
      const services: Record<string, string> = {};
      let dbOk = false;
      let anyDbAnswer = false;
      results.forEach((r, i) => {
        const body = r.body as ServiceHealth;
        services[names[i]!] = r.status === 200 ? 'up' : r.status === 0 ? 'unreachable' : 'degraded';
        if (body.services?.mongodb) {
          anyDbAnswer = true;
          if (body.services.mongodb === 'connected') dbOk = true;
        }
        if (body.services?.bus && !services.bus) services.bus = body.services.bus;
      });
      services.mongodb = dbOk ? 'connected' : 'disconnected';
      for (const [k, v] of extras) services[k] = v.ok ? 'connected' : 'disconnected';
      const ok = anyDbAnswer && dbOk;
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cache-Control', 'no-store');
      res.status(ok ? 200 : 503).json({
        status: ok ? 'ok' : 'error',
        timestamp: new Date().toISOString(),
        services,
        ...(ok ? {} : { message: 'Database not connected' }),
      });
    });
  };
}
