/**
 * The one configuration schema (decisions.md §9). Every service reads its config through
 * `loadConfig`; nothing else touches process.env. Unset URLs select the embedded defaults of
 * standalone mode.
 */
import { z } from 'zod';

const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? def : ['true', '1', 'yes'].includes(v)));

const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((v) => protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `must start with ${protocols.join('|')}://`,
    })
    .optional();

const byteSize = z
  .string()
  .regex(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, 'must be a size such as 2mb')
  .default('2mb');

const duration = z
  .string()
  .regex(/^\d+\s*(s|m|h|d)$/, 'must be a duration such as 30d, 12h, 90m')
  .default('30d');

const port = (def: number) => z.coerce.number().int().min(0).max(65535).default(def);

const fields = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d+)?$/i, 'must be a bare host name such as social.example')
    .default('localhost'),
  PUBLIC_URL: url(['http', 'https']),
  PORT: port(8080),
  HOST: z.string().default('0.0.0.0'),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(20),
  UPSTREAM_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  MONGO_URL: url(['mongodb', 'mongodb+srv']),
  REDIS_URL: url(['redis', 'rediss']),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{0,64}$/, 'letters, digits, ":", "_" or "-" only')
    .default('agora:'),
  AMQP_URL: url(['amqp', 'amqps']),
  OUTBOX_RELAY_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(5000),
  OUTBOX_RELAY_GRACE_MS: z.coerce.number().int().min(0).max(86_400_000).default(10_000),
  TIMELINE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  TIMELINE_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(1000),
  LIVE_STREAMS_PER_USER: z.coerce.number().int().min(0).max(100).default(5),
  // Below the gateway's upstream timeout (UPSTREAM_TIMEOUT_SECONDS), which an idle stream would hit.
  LIVE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  S3_ENDPOINT: url(['http', 'https']),
  S3_BUCKET: z.string().min(3).default('agora'),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY: z.string().optional(),
  S3_SECRET_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool(true),
  JWT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  JWT_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  TOKEN_TTL: duration,
  JSON_LIMIT: byteSize,
  CORS_ORIGIN: z.string().default(''),
  RATE_LIMITING_ENABLED: bool(true),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  SERVE_FRONTEND: bool(true),
  ADMIN_USERNAME: z
    .string()
    .regex(/^[a-z0-9_]{2,32}$/, 'must match ^[a-z0-9_]{2,32}$')
    .optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SMTP_URL: url(['smtp', 'smtps']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FILE: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  SQLITE_PATH: z.string().min(1).optional(),
  EMBEDDED_DB_SYNC: z.enum(['normal', 'full']).default('normal'),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(['http', 'https']),
  OTEL_SERVICE_NAME: z.string().optional(),
  OTEL_TRACES_SAMPLE_RATIO: z.coerce.number().min(0).max(1).default(1),
  TRACE_TRUST_INCOMING: bool(false),
  TRACE_VERBOSE: bool(false),
  METRICS_PORT: port(0),
  SERVICE_URLS: z.string().default(''),
  FEDERATION_ALLOW_PRIVATE: bool(false),
  FEDERATION_DELIVERY_DELAY_SCALE: z.coerce.number().min(0.0001).max(100).default(1),
  FEDERATION_POLL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  FEDERATION_BREAKER_COOLDOWN_SECONDS: z.coerce.number().int().min(1).max(21_600).default(300),
  FEDERATION_PROBE_SECONDS: z.coerce.number().int().min(1).max(3600).default(20),
  FEDERATION_NODEINFO_REFRESH_HOURS: z.coerce.number().min(0.01).max(720).default(24),
  FEDERATION_HOST_MAP: z
    .string()
    .regex(
      /^(\s*[a-z0-9.-]+(:\d+)?=[a-z0-9.-]+:\d+\s*)?(,\s*[a-z0-9.-]+(:\d+)?=[a-z0-9.-]+:\d+\s*)*$/i,
      'must be domain=host:port pairs separated by commas',
    )
    .default(''),
  BACKUP_LEASE_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
  BACKUP_WORKER: bool(true),
  BACKUP_KEEP: z.coerce.number().int().min(0).max(10_000).default(0),
  LINK_PREVIEW_ALLOW_IPS: z
    .string()
    .regex(/^[0-9a-f.:, ]*$/i, 'must be IP addresses separated by commas')
    .default(''),
});

export const configSchema = fields.check((ctx) => {
  const { LIVE_HEARTBEAT_SECONDS: heartbeat, UPSTREAM_TIMEOUT_SECONDS: upstream } = ctx.value;
  if (heartbeat >= upstream)
    ctx.issues.push({
      code: 'custom',
      input: heartbeat,
      path: ['LIVE_HEARTBEAT_SECONDS'],
      message: `must be below UPSTREAM_TIMEOUT_SECONDS (${upstream}): the gateway ends an upstream answer silent that long`,
    });
});

export type Config = z.infer<typeof configSchema> & {
  /** PUBLIC_URL, or https://DOMAIN when unset, without a trailing slash. */
  publicUrl: string;
  /** JSON_LIMIT in bytes. */
  jsonLimitBytes: number;
  /** TOKEN_TTL in seconds. */
  tokenTtlSeconds: number;
  /** JWT_SECRET, else JWT_KEY, else undefined (HMAC fallback off). */
  hmacSecret: string | undefined;
  /** Extra CORS origins. */
  corsOrigins: string[];
  /** FEDERATION_HOST_MAP as domain → host:port. */
  federationHostMap: Record<string, string>;
};

/** Human descriptions for docs/configuration.md (generated by scripts/gen-config-docs.ts). */
export const configDocs: Record<keyof z.infer<typeof configSchema>, string> = {
  NODE_ENV: '`production` disables the localhost CORS origins and development conveniences.',
  DOMAIN: 'Canonical domain: ids (`@user@domain`), token issuer `https://<domain>`, federation identity.',
  PUBLIC_URL: 'Base URL for links; default `https://<DOMAIN>`. Local development may use http and a port.',
  PORT: 'Port of the gateway (standalone: the only public port). Services use their own `PORT` in the cluster.',
  HOST: 'Address to bind.',
  UPSTREAM_TIMEOUT_SECONDS:
    "Gateway only: how long a service may stay silent on a request (no byte of its answer, no byte of the request's body passing to it) before the gateway gives up: 504 `{ error: 'Upstream service timed out' }` if nothing was answered yet, else the connection is cut. An idle timeout, so a slow upload or download that keeps moving, or a live stream with its heartbeat, is never cut. The same in standalone, where the services are called in process. Tests use about 1.",
  SHUTDOWN_GRACE_SECONDS:
    "On SIGTERM: how long in-flight requests may take to finish (readiness answers 503 at once, new connections are refused, kept-alive ones close after their request) before the remaining connections are cut. Keep it below the orchestrator's grace period (Kubernetes: `terminationGracePeriodSeconds`, 30 by default).",
  MONGO_URL:
    'MongoDB URL (the cluster). Unset: SQLite in this process, in `SQLITE_PATH` (several processes may share the file).',
  REDIS_URL:
    'Redis for shared rate limits, de-duplication and cache stamps (every replica sees one set). Unset: in-memory (one process only; set it when a service runs more than one replica).',
  REDIS_PREFIX: 'Prefix of every Redis key the services write (several deployments can share one Redis).',
  AMQP_URL: 'RabbitMQ. Unset: the in-process bus (same semantics, one process only).',
  OUTBOX_RELAY_INTERVAL_MS:
    'How often the outbox relay of each service that writes activities (social, admin, federation; standalone runs one) looks for events whose publish did not complete.',
  OUTBOX_RELAY_GRACE_MS:
    'How long an outbox row is left to its writer, or to the relay that claimed it, before a relay republishes it. Longer than a publish takes: a shorter grace only costs duplicate deliveries, which consumers drop by message id.',
  TIMELINE_CACHE_SECONDS:
    "Longest time a computed circle timeline page, circle or viewer is served from memory. Writes to the circle, its members, its posts (content, audience, replies, reactions) or the viewer make entries stale at once through stamps; only authors' names and icons copied on posts can lag this long after a profile change. `0` turns the cache off.",
  TIMELINE_CACHE_ENTRIES:
    'Most cached timeline pages, circles and viewers per social process (and ten times as many posts).',
  S3_ENDPOINT:
    'S3-compatible endpoint. Unset with no keys: objects are stored on disk under `DATA_DIR/objects`.',
  S3_BUCKET: 'Bucket for files and backup archives.',
  S3_REGION: 'S3 region.',
  S3_ACCESS_KEY: 'S3 access key.',
  S3_SECRET_KEY: 'S3 secret key.',
  S3_FORCE_PATH_STYLE: 'Path-style bucket addressing (MinIO, gofakes3, most self-hosted stores).',
  LIVE_STREAMS_PER_USER:
    'Live update streams (`GET /notifications/stream`) one user may hold open at once on one notifications replica; one more is refused with 429. `0` turns the stream off (every request 429; the web app keeps polling).',
  LIVE_HEARTBEAT_SECONDS:
    'Seconds between heartbeat comments on an idle live stream; below `UPSTREAM_TIMEOUT_SECONDS` (start-up refuses otherwise): the gateway ends an upstream answer silent that long.',
  JWT_SECRET: 'Enables the HMAC token fallback of spec 5.1 (HS256/384/512, same issuer).',
  JWT_KEY: 'Alias of JWT_SECRET (used when JWT_SECRET is unset).',
  TOKEN_TTL:
    'Lifetime of issued tokens, e.g. `30d`, `12h`; also the longest lifetime a token may have to be accepted (give every service the same value).',
  JSON_LIMIT: 'Route-tree JSON body limit (spec 1.2), e.g. `2mb`.',
  CORS_ORIGIN: 'Extra allowed origins, comma-separated.',
  RATE_LIMITING_ENABLED: '`false` turns off every rate limiter and the outbox de-duplication.',
  TRUST_PROXY: 'How many `X-Forwarded-For` hops to believe when keying rate limits by client IP.',
  SERVE_FRONTEND: '`false` turns off serving the single-page app to browsers.',
  ADMIN_USERNAME: 'Admin user created on first start (with ADMIN_PASSWORD).',
  ADMIN_PASSWORD: 'Password of that admin user (at least 8 characters).',
  SMTP_URL:
    'SMTP transport for e-mail, e.g. `smtp://user:pass@host:587`. Unset: e-mails (verification and reset links included) are written to the log, so set it in production.',
  LOG_LEVEL: 'pino log level.',
  LOG_FILE: 'Also append JSON log lines to this file (read by `GET /admin/system/logs`).',
  DATA_DIR: 'Standalone data: the SQLite database, disk object storage, logs.',
  SQLITE_PATH: 'The SQLite database file when no `MONGO_URL` is set. Default: `DATA_DIR/agora.db`.',
  EMBEDDED_DB_SYNC:
    "SQLite's `synchronous` (no `MONGO_URL`): `normal` syncs the write-ahead log to disk at checkpoints (a process crash loses nothing; a power loss or OS crash may lose the last commits, like MongoDB's default write concern), `full` at every commit (ADR 0013).",
  OTEL_EXPORTER_OTLP_ENDPOINT: 'Enables OpenTelemetry tracing, exported over OTLP/HTTP to this endpoint.',
  OTEL_SERVICE_NAME: 'Service name on traces (default `agora-<service>`).',
  OTEL_TRACES_SAMPLE_RATIO:
    'Share of new traces recorded (0 to 1), parent-based: a request or message that arrives with a sampled trace context stays sampled, so a trace is kept whole or not at all. Production with much traffic: e.g. `0.1`.',
  TRACE_TRUST_INCOMING:
    'Gateway only: `true` continues a `traceparent`/`tracestate` sent by the client. Default `false`: the public cannot choose trace ids or force sampling, so the gateway drops those headers and starts a new trace (docs/operations.md, traces).',
  TRACE_VERBOSE:
    '`true` adds the noisy spans: one per Express middleware layer and one per Redis command. Off, the HTTP span still names its route; fs, dns and net are never traced.',
  METRICS_PORT:
    'Port of the Prometheus endpoint `GET /metrics` (a listener of its own, on HOST). `0`: off. Standalone serves one endpoint for the whole process; the cluster manifests use 9464.',
  SERVICE_URLS:
    'Gateway only: `social=http://social:8080,admin=http://admin:8080,...` (cluster mode). Several replicas of a service: repeat it (`social=http://a:8080,social=http://b:8080`) or join them with `|` (`social=http://a:8080|http://b:8080`); the gateway balances round-robin, skips a replica that refused a connection for a few seconds, and retries safe requests (GET, HEAD, OPTIONS, or any with an `Idempotency-Key`) on another replica when the connection failed before an answer.',
  FEDERATION_ALLOW_PRIVATE:
    'Allow federation fetches to private/loopback addresses (tests and local multi-instance only).',
  FEDERATION_DELIVERY_DELAY_SCALE:
    'Multiplies every delivery retry delay (backoff from 30 s, at most 10 sends). Tests and local setups use a small value; production keeps 1.',
  FEDERATION_POLL_SECONDS:
    'How often the poll worker pulls each remote server whose users are members of local circles (`GET /outbox` batch pulls, catching up on what pushes missed). `0` turns polling off.',
  FEDERATION_BREAKER_COOLDOWN_SECONDS:
    "How long a server's circuit stays open after 5 transient delivery failures in a row (doubling on each re-open, at most an hour or this, whichever is longer). Its deliveries are held meanwhile, and released as soon as the server is heard from again (an inbound request, a successful pull, a probe), so this is the longest wait, not the usual one.",
  FEDERATION_PROBE_SECONDS:
    'While a server with held deliveries has an open circuit, it is probed this often (its oldest held delivery is sent once more, not counted against its attempts); an answer releases everything held for it at once.',
  FEDERATION_NODEINFO_REFRESH_HOURS:
    "How long a server's NodeInfo (software, protocols: whether it is polled and whether its pages are fetched) is trusted before it is read again.",
  FEDERATION_HOST_MAP:
    'Tests and local multi-instance setups: `peer.test=127.0.0.1:4001,...` sends fetches for a domain to that address (the Host header stays the domain), and the shared inbox of such a domain is addressed over plain http (local instances have no TLS). Needs FEDERATION_ALLOW_PRIVATE for loopback addresses.',
  BACKUP_LEASE_SECONDS:
    'How long the backup worker running a job may go without renewing its lease (renewed every third of it). When a worker dies mid-job, another replica fails the job (never `done` with a partial archive) this long after its last renewal and frees the queue.',
  BACKUP_KEEP:
    'Backup retention: after each successful backup the worker deletes every older finished backup (archive and job record) beyond the newest this many. `0` keeps them all (delete them with DELETE /admin/backup/:id). Failed jobs and restores are never counted or deleted.',
  BACKUP_WORKER:
    'Standalone only: run the backup worker inside the process. `false` when a separate worker process (`services/backup/src/main.ts`) serves the same database and broker instead.',
  LINK_PREVIEW_ALLOW_IPS:
    'Exact addresses `GET /preview` may fetch despite its private-address refusal (FEDERATION_ALLOW_PRIVATE never applies to previews). For tests and an intranet peer; leave empty in production.',
};
