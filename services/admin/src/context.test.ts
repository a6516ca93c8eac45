import { createAdminContext } from './context';
import { markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the admin context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createAdminContext(rt);
  expect(Object.keys(ctx).sort()).toEqual([
    'bus',
    'config',
    'databaseStats',
    'events',
    'logger',
    'stamps',
    'storage',
    'stores',
    'tokens',
  ]);
  for (const [name, store] of Object.entries(ctx.stores)) expect(store).toEqual({ store: name });
  for (const other of ['notifications', 'collections', 'idempotency', 'search', 'files'])
    expect(ctx.stores).not.toHaveProperty(other);
});
