/**
 * Prometheus metrics (ADR 0017): one registry per process, `GET /metrics` on METRICS_PORT, and
 * the small recorders the instrumented code calls. docs/operations.md lists every family.
 */
export { registry } from './registry';
export { startMetricsServer, type MetricsServer } from './server';
export { serveMetrics } from './process';
export { httpMetrics, templateRouteOf, type RouteOf, type RouteTemplate } from './http';
export { meteredBus } from './bus';
export { outboxMetrics } from './outbox';
export { deliveryMetrics, type DeliveryResult } from './delivery';
export { rateLimitMetrics } from './edge';
export { cacheMetrics } from './cache';
export { backupMetrics } from './backup';
