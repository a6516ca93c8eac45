/**
 * GET /__routes is true on every compiled process (spec 4.1; issue 21, item 3). The processes
 * run as docker-compose runs them, with tracing on: OpenTelemetry's express instrumentation
 * wraps every router layer, and the listing once lost the mount paths of nested routers there
 * (admin listed /admin/logs for /admin/system/logs; notifications /users/unread/count for
 * /users/:id/notifications/unread/count). Each process's listing is walked on that process
 * (test/harness/route-walk.ts): every listed route is mounted, every mounted method at a listed
 * path is listed, and the gateway's merged listing is exactly the union of the services'. The
 * gateway's OpenAPI document (merged from every process's GET /__openapi) lists exactly that.
 */
import { CLUSTER_ADMIN, DOMAIN_SERVICES, startCluster, type Cluster } from '../harness/cluster';
import { startOtlpSink, type OtlpSink } from '../harness/otlp-sink';
import { listedRoutes, missingSpecRoutes, walkRoutes } from '../harness/route-walk';
import { client, waitFor } from '../harness/standalone';
import { documentedKeys, fetchDocument, listedKeys } from '../harness/openapi';

let cluster: Cluster;
let sink: OtlpSink;
let admin: { token: string; userId: string };

beforeAll(async () => {
  sink = await startOtlpSink();
  cluster = await startCluster({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url } });
  const login = await client(cluster.url).post<{ token: string; user: { id: string } }>('/auth/login', {
    username: CLUSTER_ADMIN.username,
    password: CLUSTER_ADMIN.password,
  });
  expect(login.status).toBe(200);
  admin = { token: login.body.token, userId: login.body.user.id };
});

afterAll(async () => {
  const codes = await cluster?.stop();
  await sink?.close();
  const unclean = Object.entries(codes ?? {}).filter(([, code]) => code !== 0);
  if (unclean.length) throw new Error(`not stopped cleanly by SIGTERM: ${JSON.stringify(unclean)}`);
});

test.each(DOMAIN_SERVICES)('%s lists exactly the routes it has mounted', async (name) => {
  const report = await walkRoutes(cluster.processes[name].url, admin);
  expect(report.walked).toBeGreaterThan(0);
  expect(report).toMatchObject({ unmounted: [], unlisted: [] });
});

test('the gateway lists the union of the services, the spec routes included, and each is mounted', async () => {
  const own = await Promise.all(DOMAIN_SERVICES.map((n) => listedRoutes(cluster.processes[n].url)));
  const key = (r: { methods: string[]; path: string }) => `${r.methods.join(',')} ${r.path}`;
  const union = new Set(own.flat().map(key));
  union.add('GET /health');
  const merged = await listedRoutes(cluster.url);
  expect(new Set(merged.map(key))).toEqual(union);
  expect(missingSpecRoutes(merged)).toEqual([]);
  expect(await walkRoutes(cluster.url, admin)).toMatchObject({ unmounted: [], unlisted: [] });
  // The processes really traced (the condition under which the listing used to break). Spans
  // are exported in batches a few seconds apart: wait for the first one to arrive.
  await waitFor(() => Promise.resolve((sink.received.get('/v1/traces') ?? 0) > 0), 30_000);
});

test("the gateway's OpenAPI document lists exactly the merged routes", async () => {
  expect(documentedKeys(await fetchDocument(cluster.url))).toEqual(await listedKeys(cluster.url));
});
