// Minimal types for the parts of autocannon the benchmark uses.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    median?: number;
    [pct: string]: number | undefined;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram & { median: number };
    errors: number;
    non2xx: number;
  }
  function autocannon(opts: {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    timeout?: number;
  }): Promise<Result>;
  export default autocannon;
}
