import type { Runtime } from '@agora/common/runtime';

/**
 * A runtime whose every member and every store is a distinct marker (`{ member: name }`,
 * `{ store: name }`), so a context builder's test sees exactly what the builder copied.
 */
export function markerRuntime(): Runtime {
  const repos = new Proxy({}, { get: (_t, key) => ({ store: String(key) }) });
  return new Proxy({}, { get: (_t, key) => (key === 'repos' ? repos : { member: String(key) }) }) as Runtime;
}

/**
 * Asserts a context built from `markerRuntime()` holds exactly `members` (each the runtime's own
 * member, a derived function or object excepted), its stores are the runtime's own, and none of
 * `notStores`.
 */
export function expectContext(
  ctx: { stores: object },
  members: string[],
  notStores: string[],
  derived: string[] = [],
): void {
  expect(Object.keys(ctx).sort()).toEqual([...members].sort());
  for (const [name, value] of Object.entries(ctx)) {
    if (name === 'stores') continue;
    if (derived.includes(name)) expect(['function', 'object']).toContain(typeof value);
    else expect(value).toEqual({ member: name });
  }
  for (const [name, store] of Object.entries(ctx.stores)) expect(store).toEqual({ store: name });
  for (const other of notStores) expect(ctx.stores).not.toHaveProperty(other);
}
