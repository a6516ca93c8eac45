import { createFederationContext } from './context';
import { markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the federation context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createFederationContext(rt);
  expect(Object.keys(ctx).sort()).toEqual(['bus', 'config', 'events', 'federation', 'logger', 'stores']);
  for (const [name, store] of Object.entries(ctx.stores)) expect(store).toEqual({ store: name });
  for (const other of ['notifications', 'backupJobs', 'collections', 'idempotency', 'bookmarks', 'files'])
    expect(ctx.stores).not.toHaveProperty(other);
});
