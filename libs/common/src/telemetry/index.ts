/**
 * OpenTelemetry bootstrap. On when OTEL_EXPORTER_OTLP_ENDPOINT is set: traces, and only traces,
 * are exported over OTLP/HTTP (JSON) to `<endpoint>/v1/traces`; no OTLP metrics (Prometheus
 * serves those, ../metrics) and no OTLP logs (stdout and LOG_FILE carry them, with the trace id).
 * Sampling is parent-based with a ratio for new traces (OTEL_TRACES_SAMPLE_RATIO); W3C trace
 * context crosses the gateway proxy (HTTP headers) and the bus (message headers, see messaging).
 * Entry points start it before importing the app so the instrumentations can patch the modules.
 */
import type { Config } from '../config';
import { instrumentations } from './instrumentations';

export { distrustTraceContext } from './trust';

export interface Telemetry {
  enabled: boolean;
  shutdown(): Promise<void>;
}

const OFF: Telemetry = { enabled: false, shutdown: () => Promise.resolve() };

export async function startTelemetry(config: Config, service: string): Promise<Telemetry> {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return OFF;
  const [{ NodeSDK }, { OTLPTraceExporter }, sampling] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-trace'),
  ]);
  const sdk = new NodeSDK({
    serviceName: config.OTEL_SERVICE_NAME ?? `agora-${service}`,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    sampler: new sampling.ParentBasedSampler({
      root: new sampling.TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLE_RATIO),
    }),
    // Explicitly none, whatever OTEL_METRICS_EXPORTER / OTEL_LOGS_EXPORTER say.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: await instrumentations(config.TRACE_VERBOSE),
  });
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}
