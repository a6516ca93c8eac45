/**
 * The settings cache across processes: two runtimes (two service processes, each with its own
 * database connection, Redis client and settings cache) on one database (one SQLite file, which
 * several processes share safely) and one Redis. A write
 * in one is seen by the very next read in the other, with no waiting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@agora/common/config';
import { createRuntime, type Runtime } from '@agora/common/runtime';
import { createStores } from '@agora/common/db';
import { closeRedis, connectRedis, redisStampStore } from '@agora/common/cache';
import { testEnv, uniqueName } from '../../harness/env';

const dataDir = mkdtempSync(join(tmpdir(), 'agora-settings-'));
const runtimes: Runtime[] = [];

async function serviceProcess(name: string, env: Record<string, string>): Promise<Runtime> {
  const config = loadConfig(
    {},
    { NODE_ENV: 'test', DOMAIN: 'social.test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...env },
  );
  const rt = await createRuntime(name, config);
  runtimes.push(rt);
  return rt;
}

afterAll(async () => {
  for (const rt of runtimes) await rt.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two processes sharing Redis', () => {
  let admin: Runtime;
  let social: Runtime;
  beforeAll(async () => {
    const env = {
      SQLITE_PATH: join(dataDir, 'shared.db'),
      REDIS_URL: testEnv.redisUrl,
      REDIS_PREFIX: `${uniqueName('settings')}:`,
    };
    admin = await serviceProcess('admin', env);
    social = await serviceProcess('social', env);
    await social.repos.prepare(); // the tables and indexes (the social service's start does this)
  });

  test('an admin write is seen by the next read in the other process', async () => {
    await admin.repos.settings.set('registrationIsOpen', true);
    // Both caches hold the value now.
    expect(await social.repos.settings.get('registrationIsOpen')).toBe(true);
    expect(await admin.repos.settings.get('registrationIsOpen')).toBe(true);

    const [after] = await admin.repos.settings.writeValues([{ name: 'registrationIsOpen', value: false }]);
    expect(after?.value).toBe(false);
    expect(await social.repos.settings.get('registrationIsOpen')).toBe(false);

    // And back the other way, written by the other process.
    await social.repos.settings.set('registrationIsOpen', true);
    expect(await admin.repos.settings.get('registrationIsOpen')).toBe(true);
  });

  test('defaults written by one process reach the other', async () => {
    await admin.repos.settings.set('siteTitle', '');
    expect(await social.repos.settings.get('siteTitle')).toBe('');
    expect(await admin.repos.settings.setIfEmpty('siteTitle', 'Agora')).toBe('Agora');
    expect(await social.repos.settings.get('siteTitle')).toBe('Agora');
  });

  test('a restore (bumpAll) makes every process read again', async () => {
    await admin.repos.settings.set('siteSubtitle', 'before');
    expect(await social.repos.settings.get('siteSubtitle')).toBe('before');
    // A restore replaces the database behind the stores' backs (here: a store that bumps no
    // stamp), then moves every stamp.
    await createStores(admin.db, 'social.test').settings.set('siteSubtitle', 'restored');
    expect(await social.repos.settings.get('siteSubtitle')).toBe('before');
    await admin.stamps.bumpAll();
    expect(await social.repos.settings.get('siteSubtitle')).toBe('restored');
  });

  test('with Redis away, a process still reads and writes settings and sees its own writes', async () => {
    const away = await connectRedis('redis://127.0.0.1:1', admin.logger, 'test');
    const stamps = redisStampStore(away, 'x:', admin.logger);
    try {
      // What runtime.ts wires when REDIS_URL is set, with the Redis not answering.
      const { settings } = createStores(admin.db, 'social.test', {
        bump: (names) => stamps.bump(names),
        readStamps: (names) => stamps.read(names),
      });
      await settings.set('siteTitle', 'Offline');
      expect(await settings.get('siteTitle')).toBe('Offline');
      await settings.set('siteTitle', 'Still here');
      expect(await settings.get('siteTitle')).toBe('Still here');
    } finally {
      await closeRedis(away);
    }
  });
});
