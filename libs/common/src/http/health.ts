/** GET /health of spec 4.1: `Access-Control-Allow-Origin: *`, 503 when the database is away. */
import type { RequestHandler } from 'express';

export type Probe = () => Promise<{ ok: boolean; detail?: string }>;

/**
 * `critical`: the probes whose failure makes the answer 503 (the database). `info`: fixed facts
 * shown beside them (`engine`: which database engine the process runs on, `sqlite` or `mongodb`).
 */
export function healthHandler(
  probes: Record<string, Probe>,
  opts: { critical: string[]; info?: Record<string, string> },
): RequestHandler {
  return (_req, res, next) => {
    const names = Object.keys(probes);
    Promise.all(names.map((n) => probes[n]!().catch((e: Error) => ({ ok: false, detail: e.message }))))
      .then((results) => {
        const services: Record<string, string> = {};
        const details: Record<string, string> = {};
        let ok = true;
        results.forEach((r, i) => {
          const n = names[i]!;
          services[n] = r.ok ? 'connected' : 'disconnected';
          if (r.detail) details[n] = r.detail;
          if (!r.ok && opts.critical.includes(n)) ok = false;
        });
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Cache-Control', 'no-store');
        res.status(ok ? 200 : 503).json({
          status: ok ? 'ok' : 'error',
          timestamp: new Date().toISOString(),
          ...opts.info,
          services,
          ...(Object.keys(details).length ? { details } : {}),
          ...(ok ? {} : { message: 'Database not connected' }),
        });
      })
      .catch(next);
  };
}
