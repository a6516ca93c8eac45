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
