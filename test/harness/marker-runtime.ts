import type { Runtime } from '@agora/common/runtime';

/**
 * A runtime whose every member and every store is a distinct marker (`{ member: name }`,
 * `{ store: name }`), so a context builder's test sees exactly what the builder copied.
 */
export function markerRuntime(): Runtime {
  const repos = new Proxy({}, { get: (_t, key) => ({ store: String(key) }) });
  return new Proxy({}, { get: (_t, key) => (key === 'repos' ? repos : { member: String(key) }) }) as Runtime;
}
