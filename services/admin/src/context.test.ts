import { createAdminContext } from './context';
import { expectContext, markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the admin context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createAdminContext(rt);
  expectContext(
    ctx,
    ['bus', 'config', 'databaseStats', 'events', 'logger', 'stamps', 'storage', 'stores', 'tokens'],
    ['notifications', 'collections', 'idempotency', 'search', 'files'],
    ['databaseStats'],
  );
});
