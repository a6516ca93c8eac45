/**
 * The process's one Prometheus registry (prom-client, ADR 0017). Families are registered by the
 * code that records them, when that code is set up (`family()`), so a process exports the
 * families of what it runs: the gateway no bus counters, the backup worker no HTTP routes.
 * Node's own metrics (event-loop lag, heap, GC, handles) are always there.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

type Kind = 'counter' | 'gauge' | 'histogram';
type Made = { counter: Counter<string>; gauge: Gauge<string>; histogram: Histogram<string> };

export interface FamilySpec {
  help: string;
  labelNames?: readonly string[];
  buckets?: number[];
  /** Gauges: runs on every scrape to set the current value. */
  collect?: (this: Gauge<string>) => void | Promise<void>;
}

/** The family `name`, registered on first use (standalone and tests set a hook up many times). */
export function family<K extends Kind>(kind: K, name: string, spec: FamilySpec): Made[K] {
  const known = registry.getSingleMetric(name);
  if (known) return known as Made[K];
  const base = { name, help: spec.help, labelNames: spec.labelNames ?? [], registers: [registry] };
  if (kind === 'counter') return new Counter(base) as Made[K];
  if (kind === 'histogram')
    return new Histogram({ ...base, ...(spec.buckets ? { buckets: spec.buckets } : {}) }) as Made[K];
  return new Gauge({ ...base, ...(spec.collect ? { collect: spec.collect } : {}) }) as Made[K];
}
