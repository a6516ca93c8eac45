/**
 * The standalone server as the embedded-database benchmarks run it (scale, outbox-cpu,
 * outbox-profile): its own data directory, no rate limits, the timeline page cache off (a read
 * costs what the first read after a write costs), and none of the external services the shell
 * may point at (standalone spawns its own FerretDB on SQLite).
 */
export const BENCH_DOMAIN = 'bench.test';
export const BENCH_ADMIN = { username: 'bench_admin', password: 'bench-password' };

/** The server's settings for a benchmark run in `dir`. */
export function benchSettings(dir: string): Record<string, string> {
  return {
    DATA_DIR: dir,
    DOMAIN: BENCH_DOMAIN,
    PUBLIC_URL: `http://${BENCH_DOMAIN}`,
    RATE_LIMITING_ENABLED: 'false',
    TIMELINE_CACHE_ENTRIES: '0',
    ADMIN_USERNAME: BENCH_ADMIN.username,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
  };
}

/** The environment of a server process spawned for a benchmark run in `dir`. */
export function benchServerEnv(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...benchSettings(dir), ...extra };
  for (const k of ['MONGO_URL', 'REDIS_URL', 'AMQP_URL', 'S3_ENDPOINT']) delete env[k];
  return env;
}

type PostingClient = { setBody(b: string): void; on(e: string, f: () => void): void };

/** autocannon options that POST a new public Note on every request (a fresh body per response). */
export function postingNotes(label: string): {
  method: 'POST';
  setupClient: (client: PostingClient) => void;
} {
  let n = 0;
  return {
    method: 'POST',
    setupClient: (client) => {
      const next = () =>
        client.setBody(
          JSON.stringify({
            type: 'Create',
            objectType: 'Post',
            to: '@public',
            object: { content: `${label} ${process.pid} ${n++} ${Math.random()}` },
          }),
        );
      next();
      client.on('response', next);
    },
  };
}
