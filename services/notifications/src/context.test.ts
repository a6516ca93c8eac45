import { createNotificationsContext } from './context';
import { expectContext, markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the notifications context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createNotificationsContext(rt);
  expectContext(
    ctx,
    ['config', 'events', 'live', 'logger', 'stores', 'suspended'],
    ['settings', 'activities', 'backupJobs', 'collections', 'idempotency', 'files'],
    ['live', 'suspended'],
  );
});
