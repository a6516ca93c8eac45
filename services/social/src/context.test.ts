import { createSocialContext } from './context';
import { markerRuntime } from '../../../test/harness/marker-runtime';

const rt = markerRuntime();

test('the social context holds its own members and stores, not the database or the rest of the runtime', () => {
  const ctx = createSocialContext(rt);
  expect(Object.keys(ctx).sort()).toEqual([
    'bus',
    'config',
    'events',
    'federation',
    'logger',
    'stamps',
    'storage',
    'stores',
    'tokens',
  ]);
  for (const [name, store] of Object.entries(ctx.stores)) expect(store).toEqual({ store: name });
  for (const other of ['notifications', 'backupJobs', 'collections', 'remoteServers'])
    expect(ctx.stores).not.toHaveProperty(other);
});
