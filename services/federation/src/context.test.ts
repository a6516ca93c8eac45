import type { Runtime } from '@agora/common/runtime';
import { createFederationContext } from './context';

// A runtime whose every member and every store is a distinct marker, so the test sees exactly
// what the builder copied.
const repos = new Proxy({}, { get: (_t, key) => ({ store: String(key) }) });
const rt = new Proxy({}, { get: (_t, key) => (key === 'repos' ? repos : { member: String(key) }) });

test('the federation context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createFederationContext(rt as unknown as Runtime);
  expect(Object.keys(ctx).sort()).toEqual(['bus', 'config', 'events', 'federation', 'logger', 'stores']);
  for (const [name, store] of Object.entries(ctx.stores)) expect(store).toEqual({ store: name });
  for (const other of ['notifications', 'backupJobs', 'collections', 'idempotency', 'bookmarks', 'files'])
    expect(ctx.stores).not.toHaveProperty(other);
});
