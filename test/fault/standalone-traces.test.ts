/**
 * `npm start` traces as the cluster's processes do (docs/operations.md, "Traces"): with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, the compiled standalone starts the OpenTelemetry SDK before its
 * modules load and exports the spans of a request to the collector (here an in-process OTLP
 * receiver, test/harness/otlp-sink.ts) under `agora-standalone`: the server span of `POST /outbox`
 * and, in the same trace, the spans of the work it did. Without the variable nothing is exported
 * (standalone-modules.test.ts: the SDK is not even loaded).
 */
import { call, registerOn, startCompiled, type CompiledServer } from '../harness/compiled';
import { startOtlpSink, type OtlpSink } from '../harness/otlp-sink';
import { waitFor } from '../harness/standalone';

const SERVER = 2;

let sink: OtlpSink;
let server: CompiledServer;

beforeAll(async () => {
  sink = await startOtlpSink();
  server = await startCompiled({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_BSP_SCHEDULE_DELAY: '200' },
  });
});
afterAll(async () => {
  await server?.stop();
  await sink?.close();
});

test('a post to the standalone server is exported as one trace under agora-standalone', async () => {
  const token = await registerOn(server, 'traced_user');
  const post = await call(server, 'POST', '/outbox', {
    token,
    body: { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'traced' } },
  });
  expect(post.status).toBe(201);

  const handled = () =>
    sink.spans.find(
      (s) => s.kind === SERVER && /POST/.test(s.name) && s.attributes['http.route'] === '/outbox',
    );
  await waitFor(() => Promise.resolve(handled() !== undefined), 20_000).catch((err: Error) => {
    throw new Error(
      `${err.message}; spans: ${sink.spans.map((s) => `${s.service} ${s.kind} ${s.name}`).join('\n')}`,
    );
  });
  const span = handled()!;
  expect(span.service).toBe('agora-standalone');
  // The request's own work is in its trace, below the server span.
  const inTrace = sink.spans.filter((s) => s.traceId === span.traceId);
  expect(inTrace.some((s) => s.parentSpanId !== '')).toBe(true);
});
