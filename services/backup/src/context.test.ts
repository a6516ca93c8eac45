import { createBackupContext } from './context';
import { markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the backup context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createBackupContext(rt);
  expect(Object.keys(ctx).sort()).toEqual(['config', 'events', 'logger', 'stamps', 'storage', 'stores']);
  for (const [name, store] of Object.entries(ctx.stores)) expect(store).toEqual({ store: name });
  for (const other of ['notifications', 'posts', 'activities', 'idempotency', 'files'])
    expect(ctx.stores).not.toHaveProperty(other);
});
