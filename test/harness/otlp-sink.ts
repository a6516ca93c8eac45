/**
 * A stand-in OpenTelemetry collector: accepts OTLP/HTTP exports on a loopback port, counts them
 * by path, and keeps the spans of trace exports (OTLP/JSON, what the SDK's HTTP exporter sends),
 * so processes run with tracing on (as docker-compose runs them) without a collector, and a test
 * can read the traces they sent.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received span, flattened from OTLP/JSON. */
export interface SinkSpan {
  /** `service.name` of the exporting process's resource (`agora-social`, ...). */
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

export interface OtlpSink {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Export requests received, by path (`/v1/traces`, ...). */
  received: Map<string, number>;
  /** Every span received so far, in arrival order. */
  spans: SinkSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpKeyValue {
  key: string;
  value: OtlpValue;
}
interface OtlpTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpKeyValue[];
      }>;
    }>;
  }>;
}

function attributesOf(list: OtlpKeyValue[] = []): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list) {
    const v = value.stringValue ?? value.boolValue ?? value.doubleValue ?? value.intValue;
    if (v !== undefined) out[key] = typeof v === 'string' && value.intValue !== undefined ? Number(v) : v;
  }
  return out;
}

function spansOf(doc: OtlpTraces): SinkSpan[] {
  return (doc.resourceSpans ?? []).flatMap((rs) => {
    const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        service,
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        name: s.name,
        kind: s.kind,
        attributes: attributesOf(s.attributes),
      })),
    );
  });
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const received = new Map<string, number>();
  const spans: SinkSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      received.set(path, (received.get(path) ?? 0) + 1);
      if (path === '/v1/traces' && /json/.test(req.headers['content-type'] ?? '')) {
        try {
          spans.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString()) as OtlpTraces));
        } catch {
          // Not JSON after all: counted, not kept.
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
