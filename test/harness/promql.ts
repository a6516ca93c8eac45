/**
 * Just enough of Prometheus for the monitoring test: the metric names of an exposition (what a
 * process exports, histogram and summary series included) and the metric names a PromQL
 * expression reads (functions, aggregations, keywords, label matchers, ranges, grouping labels and
 * Grafana variables left out). Not a PromQL parser: it reads the expressions of deploy/monitoring.
 */

/** Series names a process exports, from its `GET /metrics` text (families without samples too). */
export function exportedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      const [, name, kind] = type;
      names.add(name!);
      if (kind === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name! + s);
      if (kind === 'summary') for (const s of ['_sum', '_count']) names.add(name! + s);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (sample) names.add(sample[1]!);
  }
  return names;
}

/** Samples of one series name: their labels and value. */
export function samplesOf(
  exposition: string,
  name: string,
): Array<{ labels: Record<string, string>; value: number }> {
  const out: Array<{ labels: Record<string, string>; value: number }> = [];
  for (const line of exposition.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/** Metric names read by a PromQL expression. */
export function metricsIn(expr: string): string[] {
  const s = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  const out = new Set<string>();
  for (const m of s.matchAll(/(?<![\w:.])([a-zA-Z_:][a-zA-Z0-9_:]*)(?![\w:])(\s*\()?/g)) {
    const [, name, call] = m;
    if (call || KEYWORDS.has(name!.toLowerCase())) continue;
    out.add(name!);
  }
  return [...out];
}
