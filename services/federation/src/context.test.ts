import { createFederationContext } from './context';
import { expectContext, markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the federation context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createFederationContext(rt);
  expectContext(
    ctx,
    ['bus', 'config', 'events', 'federation', 'logger', 'peers', 'stamps', 'stores'],
    ['notifications', 'backupJobs', 'collections', 'idempotency', 'bookmarks', 'files'],
    ['peers'],
  );
});
