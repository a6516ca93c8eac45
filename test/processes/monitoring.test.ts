/**
 * `/metrics` answers on every process (issue 25, item 3): the cluster's five processes, each on a
 * metrics port of its own (METRICS_PORT), and the all-in-one standalone process (backup worker
 * included). Each exports the families of what it runs, labelled by route template (never a raw
 * URL), and the alert rules and the Grafana dashboard shipped in deploy/monitoring read only
 * metrics those processes really export (test/harness/promql.ts reads the expressions).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { freePort } from '@agora/common/db';
import { registerActor, type Actor } from '../harness/actors';
import { DOMAIN_SERVICES, startCluster, type Cluster, type ClusterService } from '../harness/cluster';
import { startCompiled, type CompiledServer } from '../harness/compiled';
import { startOtlpSink, type OtlpSink } from '../harness/otlp-sink';
import { exportedNames, metricsIn, samplesOf } from '../harness/promql';
import { client } from '../harness/standalone';

const MONITORING = join(__dirname, '..', '..', 'deploy', 'monitoring');
/** Series Prometheus makes itself, not a process. */
const BUILT_IN = new Set(['up']);

let cluster: Cluster;
let sink: OtlpSink;
let standalone: CompiledServer;
let standaloneMetrics: string;
let alice: Actor;

const scrape = async (url: string) => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};

beforeAll(async () => {
  const metricsPort = await freePort();
  sink = await startOtlpSink();
  // Tracing on with a ratio of 0: no new trace is sampled (the last test reads the receiver).
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLE_RATIO: '0' };
  [cluster, standalone] = await Promise.all([
    startCluster({ startTimeoutMs: 150_000, env: tracing }),
    startCompiled({ env: { METRICS_PORT: String(metricsPort), RATE_LIMITING_ENABLED: 'true' } }),
  ]);
  standaloneMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
  const api = client(cluster.url);
  alice = await registerActor(api, 'alice');
  const post = await api.post<{ createdId: string }>(
    '/outbox',
    { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'measured' } },
    { token: alice.token },
  );
  expect(post.status).toBe(201);
  // A client asking for sampling (flag 01) is not obeyed: the gateway does not trust its context.
  const forced = { traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01` };
  expect((await api.get('/__routes', { headers: forced })).status).toBe(200);
  expect((await api.get(`/posts/${post.body.createdId}`, { token: alice.token })).status).toBe(200);
  expect((await api.get('/posts/no-such-post', { token: alice.token })).status).toBe(404);
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  await standalone?.stop();
  await sink?.close();
});

const FAMILIES: Record<ClusterService, string[]> = {
  gateway: [
    'agora_http_requests_total',
    'agora_rate_limit_refusals_total',
    'nodejs_eventloop_lag_p99_seconds',
  ],
  social: [
    'agora_http_requests_total',
    'agora_bus_published_total',
    'agora_bus_queue_depth',
    'agora_outbox_rows_waiting',
    'agora_cache_lookups_total',
  ],
  admin: ['agora_http_request_duration_seconds', 'agora_outbox_oldest_waiting_seconds'],
  federation: ['agora_federation_deliveries_total', 'agora_bus_consumed_total', 'agora_bus_queue_depth'],
  notifications: ['agora_bus_consumed_total', 'agora_http_requests_total'],
};

test.each([...DOMAIN_SERVICES, 'gateway' as const])(
  '%s exports its families on its metrics port',
  async (name) => {
    const names = exportedNames(await scrape(cluster.processes[name].metricsUrl));
    for (const family of FAMILIES[name]) expect([name, names.has(family)]).toEqual([name, true]);
    // What a process does not run, it does not export.
    if (name === 'gateway') expect(names.has('agora_bus_published_total')).toBe(false);
    expect(names.has('agora_backup_jobs_total')).toBe(false);
  },
);

test('requests are counted by route template, never by raw URL', async () => {
  const text = await scrape(cluster.processes.social.metricsUrl);
  const routes = samplesOf(text, 'agora_http_requests_total').map((s) => s.labels);
  expect(routes).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ service: 'social', method: 'POST', route: '/outbox', code: '201' }),
      expect.objectContaining({ service: 'social', method: 'GET', route: '/posts/:id', code: '200' }),
      expect.objectContaining({ service: 'social', method: 'GET', route: '/posts/:id', code: '404' }),
    ]),
  );
  for (const { route } of routes) expect(route).not.toMatch(/no-such-post|[0-9a-f]{8}-|[A-Za-z0-9_-]{20,}/);
  const edge = samplesOf(await scrape(cluster.processes.gateway.metricsUrl), 'agora_http_requests_total');
  expect(edge.map((s) => s.labels.route)).toEqual(expect.arrayContaining(['proxy:social']));
  expect(edge.every((s) => /^(proxy:\w+|\/health|\/__routes)$/.test(s.labels.route!))).toBe(true);
});

test('the standalone process serves every family on one port, the backup worker included', async () => {
  expect((await fetch(`${standalone.url}/health`)).status).toBe(200);
  const text = await scrape(standaloneMetrics);
  const names = exportedNames(text);
  for (const family of [
    'agora_backup_jobs_total',
    'agora_backup_running',
    'agora_federation_deliveries_total',
    'agora_rate_limit_refusals_total',
    'agora_bus_queue_depth',
  ])
    expect([family, names.has(family)]).toEqual([family, true]);
  expect(samplesOf(text, 'agora_backup_running')).toEqual(
    expect.arrayContaining([{ labels: { type: 'backup' }, value: 0 }]),
  );
  // One process, every service: told apart by the `service` label.
  const services = new Set(samplesOf(text, 'agora_http_requests_total').map((s) => s.labels.service));
  expect(services.has('gateway')).toBe(true);
});

describe('deploy/monitoring reads only metrics the processes export', () => {
  let exported: Set<string>;
  beforeAll(async () => {
    const texts = await Promise.all([
      ...Object.values(cluster.processes).map((p) => scrape(p.metricsUrl)),
      scrape(standaloneMetrics),
    ]);
    exported = new Set([...BUILT_IN, ...texts.flatMap((t) => [...exportedNames(t)])]);
  });

  test('the reader finds metric names, and an unknown one is flagged', () => {
    expect(
      metricsIn('sum by (service) (rate(agora_http_requests_total{code=~"5.."}[5m])) / ignoring(x) up'),
    ).toEqual(['agora_http_requests_total', 'up']);
    expect(exported.has('agora_no_such_metric_total')).toBe(false);
  });

  test('alert rules', () => {
    const doc = parse(readFileSync(join(MONITORING, 'alerts.yaml'), 'utf8')) as {
      groups: Array<{
        name: string;
        rules: Array<{ alert: string; expr: string; annotations?: { runbook?: string } }>;
      }>;
    };
    const rules = doc.groups.flatMap((g) => g.rules);
    expect(rules.length).toBeGreaterThan(5);
    const unknown = rules.flatMap((r) =>
      metricsIn(r.expr)
        .filter((m) => !exported.has(m))
        .map((m) => `${r.alert}: ${m}`),
    );
    expect(unknown).toEqual([]);
    for (const r of rules) expect(metricsIn(r.expr).length).toBeGreaterThan(0);
    // Each alert has its section in the runbook.
    const runbook = readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
    const missing = rules.filter((r) => !runbook.includes(`#### ${r.alert}`)).map((r) => r.alert);
    expect(missing).toEqual([]);
  });

  test('Grafana dashboard', () => {
    const dash = JSON.parse(readFileSync(join(MONITORING, 'grafana-dashboard.json'), 'utf8')) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    const exprs = dash.panels.flatMap((p) => p.targets.map((t) => ({ panel: p.title, expr: t.expr })));
    expect(exprs.length).toBeGreaterThan(10);
    const unknown = exprs.flatMap((e) =>
      metricsIn(e.expr)
        .filter((m) => !exported.has(m))
        .map((m) => `${e.panel}: ${m}`),
    );
    expect(unknown).toEqual([]);
  });
});

test('with OTEL_TRACES_SAMPLE_RATIO=0 no trace is recorded, even one a client marked sampled', async () => {
  // SIGTERM flushes every process's pending spans before it exits.
  const codes = await cluster.stop();
  expect(Object.values(codes)).toEqual([0, 0, 0, 0, 0]);
  expect(sink.spans.map((s) => `${s.service} ${s.name}`)).toEqual([]);
});
