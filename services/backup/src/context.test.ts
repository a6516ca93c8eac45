import { createBackupContext } from './context';
import { expectContext, markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the backup context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createBackupContext(rt);
  expectContext(
    ctx,
    ['config', 'events', 'logger', 'stamps', 'storage', 'stores'],
    ['notifications', 'posts', 'activities', 'idempotency', 'files'],
  );
});
