/**
 * GET /__routes and GET /health across every service. A service with several replicas counts as
 * up when one of them answers 200 (all are asked at once); its routes come from one that does.
 */
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

/** A replica's 200 answer to `path` (all asked at once), or one failure when none answered 200. */
async function firstOk(urls: readonly string[], path: string, timeoutMs: number) {
  const answers = urls.map((url) =>
    getJson(`${url}${path}`, timeoutMs).catch(() => ({ status: 0, body: {} })),
  );
  const ok = await Promise.any(
    answers.map((a) => a.then((r) => (r.status === 200 ? r : Promise.reject(new Error(String(r.status)))))),
  ).catch(() => undefined);
  return ok ?? (await answers[answers.length - 1]!);
}

export function routesHandler(targets: Record<ServiceName, readonly string[]>): RequestHandler {
  return (_req, res, next) => {
    Promise.all(
      Object.values(targets).map(async (urls) => {
        const r = await firstOk(urls, '/__routes', 5000);
        if (r.status !== 200) throw new Error(`GET /__routes: no replica answered (${urls.join(', ')})`);
        return (r.body as { routes?: RouteEntry[] }).routes ?? [];
      }),
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
  engine?: string;
  services?: Record<string, string>;
}

export function healthAggregate(
  targets: Record<ServiceName, readonly string[]>,
  extra: Record<string, () => Promise<{ ok: boolean }>>,
): RequestHandler {
  return (_req, res) => {
    const names = Object.keys(targets) as ServiceName[];
    void Promise.all([
      Promise.all(names.map((n) => firstOk(targets[n], '/health', 3000))),
      Promise.all(
        Object.entries(extra).map(
          async ([k, probe]) => [k, await probe().catch(() => ({ ok: false }))] as const,
        ),
      ),
    ]).then(([results, extras]) => {
      const services: Record<string, string> = {};
      let dbOk = false;
      let anyDbAnswer = false;
      let engine: string | undefined;
      results.forEach((r, i) => {
        const body = r.body as ServiceHealth;
        services[names[i]!] = r.status === 200 ? 'up' : r.status === 0 ? 'unreachable' : 'degraded';
        if (body.services?.mongodb) {
          anyDbAnswer = true;
          if (body.services.mongodb === 'connected') dbOk = true;
        }
        engine ??= body.engine;
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
        ...(engine ? { engine } : {}),
        services,
        ...(ok ? {} : { message: 'Database not connected' }),
      });
    });
  };
}
