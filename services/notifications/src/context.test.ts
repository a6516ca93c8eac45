import { createNotificationsContext } from './context';
import { markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the notifications context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createNotificationsContext(rt);
  expect(Object.keys(ctx).sort()).toEqual(['config', 'events', 'logger', 'stores']);
  for (const [name, store] of Object.entries(ctx.stores)) expect(store).toEqual({ store: name });
  for (const other of ['settings', 'activities', 'backupJobs', 'collections', 'idempotency', 'files'])
    expect(ctx.stores).not.toHaveProperty(other);
});
