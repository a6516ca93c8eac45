/**
 * OpenTelemetry bootstrap. On when OTEL_EXPORTER_OTLP_ENDPOINT is set: traces of http, express,
 * mongoose/mongodb, redis and amqplib are exported over OTLP/HTTP, and W3C trace context crosses
 * the gateway proxy (HTTP headers) and RabbitMQ (message headers, see messaging). Entry points
 * start it before importing the app so the instrumentations can patch the modules.
 */
import type { Config } from '../config';

export interface Telemetry {
  enabled: boolean;
  shutdown(): Promise<void>;
}

const OFF: Telemetry = { enabled: false, shutdown: () => Promise.resolve() };

export async function startTelemetry(config: Config, service: string): Promise<Telemetry> {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return OFF;
  const [{ NodeSDK }, { OTLPTraceExporter }, { getNodeAutoInstrumentations }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/auto-instrumentations-node'),
  ]);
  const sdk = new NodeSDK({
    serviceName: config.OTEL_SERVICE_NAME ?? `agora-${service}`,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    instrumentations: [
      getNodeAutoInstrumentations({
        // File-system and DNS spans are noise for a request/response service.
        '@opentelemetry/instrumentation-fs': { enabled: false },
        '@opentelemetry/instrumentation-dns': { enabled: false },
        '@opentelemetry/instrumentation-net': { enabled: false },
        // Our bus injects and extracts trace context itself (messaging/); the amqplib
        // instrumentation would duplicate spans and overwrite explicitly passed traceparents.
        '@opentelemetry/instrumentation-amqplib': { enabled: false },
      }),
    ],
  });
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}
