/**
 * The event catalogue at work on real RabbitMQ (a vhost of this file's own) and FerretDB: the
 * services' real consumers park a message that does not match the catalogue, published raw, in
 * their dead-letter queue at once (no retries) with the reason, and log why; a valid message is
 * handled (the federation planner turns a `user.followed` into a `federation.deliver` job that
 * carries the catalogue version).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@agora/common/config';
import { sharedInboxOf } from '@agora/common/federation';
import {
  DEAD_REASON_HEADER,
  JOBS,
  VERSION_HEADER,
  createAmqpBus,
  type BusMessage,
  type MessageBus,
} from '@agora/common/messaging';
import { createRuntime, type Runtime } from '@agora/common/runtime';
import { startConsumer } from '../../../services/notifications/src/consumer';
import { startInbox } from '../../../services/social/src/consumers/inbox';
import { startUserCopies } from '../../../services/social/src/consumers/user-copies';
import { startPlanner } from '../../../services/federation/src/delivery/plan';
import { startDeliveryWorker } from '../../../services/federation/src/delivery/worker';
import { startWorker, type BackupWorker } from '../../../services/backup/src/worker';
import { createNotificationsContext } from '../../../services/notifications/src/context';
import { createSocialContext } from '../../../services/social/src/context';
import { createFederationContext } from '../../../services/federation/src/context';
import { createBackupContext } from '../../../services/backup/src/context';
import { createVhost, mongoUrlFor, uniqueName } from '../../harness/env';
import { capturingLogger, silentLogger, waitFor } from './fixtures';

const ALICE = '@alice@social.test';

let vhost: { url: string; remove: () => Promise<void> };
let dataDir: string;
let rt: Runtime;
let raw: MessageBus;
let backup: BackupWorker;
const log = capturingLogger('warn');

beforeAll(async () => {
  vhost = await createVhost(uniqueName('catalogue'));
  dataDir = mkdtempSync(join(tmpdir(), 'agora-catalogue-'));
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      DOMAIN: 'social.test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      MONGO_URL: mongoUrlFor(uniqueName('catalogue')),
      AMQP_URL: vhost.url,
      PORT: '0',
    },
  );
  rt = await createRuntime('catalogue-test', config, { logger: log.logger });
  await startConsumer(createNotificationsContext(rt));
  await startInbox(createSocialContext(rt));
  await startUserCopies(createSocialContext(rt));
  await startPlanner(createFederationContext(rt));
  backup = await startWorker(createBackupContext(rt));
  // A second connection, as another process would publish: the raw API, no catalogue check.
  raw = createAmqpBus({ url: vhost.url, logger: silentLogger, service: 'raw-producer', timeoutMs: 20_000 });
});

afterAll(async () => {
  await backup?.stop();
  await raw?.close();
  await rt?.close();
  await vhost?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Waits for the one message `id` in `<queue>.dead`. */
async function deadLetter(queue: string, id: string): Promise<BusMessage> {
  let found: BusMessage | undefined;
  await waitFor(`${id} in ${queue}.dead`, async () => {
    found ??= (await rt.bus.drainDead(queue)).find((m) => m.id === id);
    return found !== undefined;
  });
  return found!;
}

describe.each([
  {
    consumer: 'notifications',
    queue: 'notifications.events',
    name: 'reply.created',
    payload: { replyId: { $ne: null }, rootId: 'p', parentId: 'p', actorId: ALICE },
    reason: /^reply\.created v1: payload\.replyId: /,
  },
  {
    consumer: 'social inbox',
    queue: 'social.inbox',
    name: 'inbox.accepted',
    payload: { activityId: 'activity:1@social.test', remoteId: 'https://peer.test/1', type: 'Create' },
    reason: /^inbox\.accepted v1: payload\.signerDomain: /,
  },
  {
    consumer: 'social user copies',
    queue: 'social.user-copies',
    name: 'user.updated',
    payload: { userId: ALICE, fields: 'name', name: 'Alice', icon: null },
    reason: /^user\.updated v1: payload\.fields: /,
  },
  {
    consumer: 'federation planner',
    queue: 'federation.plan',
    name: 'post.deleted',
    payload: { objectId: 42, objectType: 'Post', actorId: ALICE, ownerId: ALICE },
    reason: /^post\.deleted v1: payload\.objectId: /,
  },
])('$consumer ($queue)', ({ queue, name, payload, reason }) => {
  test('a malformed event published raw is dead-lettered at once, with the reason, and logged', async () => {
    const id = uniqueName('bad');
    await raw.publish(name, payload, { id });
    const dead = await deadLetter(queue, id);
    expect(dead.name).toBe(name);
    expect(dead.attempt).toBe(1);
    expect(dead.headers[DEAD_REASON_HEADER]).toMatch(/^PermanentMessageError: /);
    expect(dead.headers[DEAD_REASON_HEADER]!.replace('PermanentMessageError: ', '')).toMatch(reason);
    await waitFor('the refusal logged', () =>
      log.lines.some((l) => l.includes(id) && l.includes('does not match the event catalogue')),
    );
  });

  test('an event of another version is dead-lettered, not guessed at', async () => {
    const id = uniqueName('v2');
    await raw.publish(name, payload, { id, headers: { [VERSION_HEADER]: '2' } });
    const dead = await deadLetter(queue, id);
    expect(dead.headers[DEAD_REASON_HEADER]).toContain(`${name}: version 2, this consumer reads version 1`);
  });
});

test('the backup worker dead-letters a malformed backup.run job', async () => {
  const id = uniqueName('job');
  await raw.enqueue('backup.run', { jobId: '../../etc' }, { id });
  const dead = await deadLetter('backup.run', id);
  expect(dead.attempt).toBe(1);
  expect(dead.headers[DEAD_REASON_HEADER]).toContain('backup.run v1: payload.jobId: must be a job id');
});

describe('a valid event is handled', () => {
  test('the planner turns a raw user.followed into a federation.deliver job with its version', async () => {
    // Taken off the queue by the test instead of the delivery worker: nothing is sent anywhere.
    const jobs = createAmqpBus({
      url: vhost.url,
      logger: silentLogger,
      service: 'job-probe',
      timeoutMs: 20_000,
    });
    try {
      const got: BusMessage[] = [];
      await jobs.work('federation.deliver', (m) => {
        got.push(m);
        return Promise.resolve();
      });
      const followed = {
        actorId: ALICE,
        targetId: '@bob@peer.test',
        circleId: 'circle:0123456789abcdef01234567@social.test',
      };
      const id = uniqueName('follow');
      await raw.publish('user.followed', followed, { id });
      await waitFor('the delivery job', () => got.length > 0);
      const [job] = got;
      expect(job!.headers[VERSION_HEADER]).toBe(String(JOBS['federation.deliver'].version));
      expect(job!.payload).toMatchObject({
        inbox: sharedInboxOf(rt.config, 'peer.test'),
        domain: 'peer.test',
        attempt: 1,
        activity: { type: 'Follow', actorId: ALICE, object: '@bob@peer.test' },
      });
      // Handled, not parked: the planner's dead letters hold nothing of it.
      expect((await rt.bus.drainDead('federation.plan')).map((m) => m.id)).not.toContain(id);
    } finally {
      await jobs.close();
    }
  });

  test('the delivery worker dead-letters a job that does not parse', async () => {
    await startDeliveryWorker(createFederationContext(rt));
    const id = uniqueName('deliver');
    await raw.enqueue(
      'federation.deliver',
      { inbox: 'https://peer.test/inbox', domain: 'peer.test' },
      { id },
    );
    const dead = await deadLetter('federation.deliver', id);
    expect(dead.attempt).toBe(1);
    expect(dead.headers[DEAD_REASON_HEADER]).toMatch(/federation\.deliver v1: payload\.activity: /);
  });
});
