import { createSocialContext } from './context';
import { expectContext, markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the social context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createSocialContext(rt);
  expectContext(
    ctx,
    ['bus', 'config', 'events', 'federation', 'logger', 'stamps', 'storage', 'stores', 'tokens'],
    ['notifications', 'backupJobs', 'collections', 'parkedDeliveries'],
  );
});
