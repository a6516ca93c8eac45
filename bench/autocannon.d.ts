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
  interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  function autocannon(opts: {
    url: string;
    connections?: number;
    duration?: number;
    /** Stop after this many requests (instead of after `duration`). */
    amount?: number;
    headers?: Record<string, string>;
    timeout?: number;
    requests?: Array<RequestSpec & { setupRequest?: (req: RequestSpec) => RequestSpec }>;
  }): Promise<Result> & {
    /** Every response, with its latency in ms. */
    on(
      event: 'response',
      listener: (client: unknown, status: number, bytes: number, ms: number) => void,
    ): void;
  };
  export default autocannon;
}
