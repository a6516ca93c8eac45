/** autocannon rounds and their statistics. */
import autocannon from 'autocannon';

export interface Sample {
  rps: number;
  p50: number;
  p95: number;
  errors: number;
  non2xx: number;
}

export async function measure(
  url: string,
  opts: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<Sample> {
  const r = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers ?? {},
    timeout: 60,
  });
  const lat = r.latency as unknown as Record<string, number>;
  return {
    rps: r.requests.average,
    p50: lat.p50 ?? r.latency.median,
    p95: lat.p97_5 ?? lat.p99 ?? 0,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function spread(xs: number[]): string {
  return `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
}

/** The q-quantile (0–1) of a sample, nearest rank. */
export function quantile(xs: number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

export interface Round {
  /** Latency quantiles of every response of the round, in ms (exact, not autocannon's buckets). */
  p50: number;
  p95: number;
  /** Responses per second over the round. */
  rps: number;
  failed: number;
}

/** One autocannon round that records every response's latency. */
export async function round(
  url: string,
  opts: { connections: number; seconds: number; headers: Record<string, string> } & Record<string, unknown>,
): Promise<Round> {
  const latencies: number[] = [];
  const started = performance.now();
  const run = autocannon({ timeout: 60, ...opts, url, duration: opts.seconds });
  run.on('response', (_c, _status, _bytes, ms) => latencies.push(ms));
  const r = await run;
  const elapsed = (performance.now() - started) / 1000;
  return {
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    rps: latencies.length / elapsed,
    failed: r.errors + r.non2xx,
  };
}
