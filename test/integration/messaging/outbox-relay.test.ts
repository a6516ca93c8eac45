/**
 * The outbox relay against real RabbitMQ and a real database (issue 22 item 5c). Each service
 * that records activities runs a relay of its own: social (registration), admin (an admin write)
 * and federation (an accepted inbound activity) each write while the broker refuses every
 * connection, so the write's own publish fails and its outbox row stays; once the broker takes
 * connections again, that service's relay, the only one running, republishes the events with
 * their message ids and clears the row. Several relays on one database (replicas) publish each
 * row once: a row is claimed by a compare-and-set before it is published.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig, type Config } from '@agora/common/config';
import { ActivitiesStore, openDatabase, STORE_SPECS, type Database } from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import {
  createAmqpBus,
  domainEvent,
  relayOnce,
  type BusMessage,
  type MessageBus,
} from '@agora/common/messaging';
import type { ServiceApp } from '@agora/common/service';
import { createApp as createSocial } from '@agora/social';
import { createApp as createAdmin } from '@agora/admin';
import { createApp as createFederation } from '@agora/federation';
import { createSocialContext } from '../../../services/social/src/context';
import { registerUser } from '../../../services/social/src/users/register';
import { createAdminContext } from '../../../services/admin/src/context';
import { recordAdminWrite } from '../../../services/admin/src/record';
import { createFederationContext } from '../../../services/federation/src/context';
import { recordInbound } from '../../../services/federation/src/inbox/accept';
import { createVhost, uniqueName } from '../../harness/env';
import { waitFor } from './fixtures';

const run = promisify(execFile);
const DOMAIN = 'relay.test';
const logger = createLogger({ level: 'silent', service: 'test' });

let vhost: { name: string; url: string; remove: () => Promise<void> };
let dir: string;
let listener: MessageBus;
/** Every message the broker delivered, by message id: how many times. */
const delivered = new Map<string, number>();
const buses: MessageBus[] = [];

/** A bus on this file's vhost; the services' give up a publish after 1.5 s, so a write against a refusing broker fails quickly. */
function bus(service: string, timeoutMs = 1500): MessageBus {
  const b = createAmqpBus({ url: vhost.url, logger, service, timeoutMs });
  buses.push(b);
  return b;
}

/** The broker refuses every connection to this vhost and drops the open ones: publishes fail. */
async function brokerAway(): Promise<void> {
  await run('rabbitmqctl', ['-q', 'set_vhost_limits', '-p', vhost.name, '{"max-connections": 0}']);
  await run('rabbitmqctl', ['-q', 'close_all_connections', '-p', vhost.name, 'outbox relay test']);
}

async function brokerBack(): Promise<void> {
  await run('rabbitmqctl', ['-q', 'set_vhost_limits', '-p', vhost.name, '{"max-connections": -1}']);
}

/** A SQLite file of its own with every collection, as social's start prepares it. */
async function databaseFile(name: string): Promise<string> {
  const path = join(dir, `${name}.db`);
  const db = await openDatabase({ logger, sqlitePath: path, checkIndexes: true });
  await db.engine.ensure(STORE_SPECS);
  await db.close();
  return path;
}

function configFor(sqlitePath: string): Config {
  return loadConfig(
    {},
    {
      NODE_ENV: 'test',
      DOMAIN,
      LOG_LEVEL: 'silent',
      DATA_DIR: dir,
      SQLITE_PATH: sqlitePath,
      AMQP_URL: vhost.url,
      FEDERATION_POLL_SECONDS: '0',
      OUTBOX_RELAY_INTERVAL_MS: '100',
      OUTBOX_RELAY_GRACE_MS: '300',
    },
  );
}

/** The outbox rows of a store, by activity id (due far ahead: every row). */
async function outboxIds(store: ActivitiesStore): Promise<string[]> {
  return (await store.due(new Date(Date.now() + 3_600_000), 1000)).map((r) => r.activityId);
}

beforeAll(async () => {
  const name = uniqueName('relay');
  vhost = { name, ...(await createVhost(name)) };
  dir = mkdtempSync(join(tmpdir(), 'outbox-relay-'));
  listener = createAmqpBus({ url: vhost.url, logger, service: 'listener', timeoutMs: 20_000 });
  // A durable queue bound to every event: what is published while the listener is cut off waits there.
  await listener.subscribe('test.outbox-relay', ['#'], (m: BusMessage) => {
    delivered.set(m.id, (delivered.get(m.id) ?? 0) + 1);
    return Promise.resolve();
  });
});

afterAll(async () => {
  await brokerBack().catch(() => undefined);
  await Promise.all(buses.map((b) => b.close()));
  await listener?.close();
  await vhost?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each([
  {
    service: 'social',
    createApp: createSocial,
    /** Registration: `user.registered` on the account's Create activity. */
    write: async (app: ServiceApp) => {
      const ctx = createSocialContext(app.runtime!);
      const res = await registerUser(ctx, { username: 'relayed', password: 'long enough password' });
      return { activityId: res.activity.id, events: 1 };
    },
  },
  {
    service: 'admin',
    createApp: createAdmin,
    /** An admin write: the activity event and the post's deletion. */
    write: async (app: ServiceApp) => {
      const ctx = createAdminContext(app.runtime!);
      await recordAdminWrite(
        ctx,
        `@root@${DOMAIN}`,
        { type: 'Delete', objectType: 'Post', objectId: `post:1@${DOMAIN}` },
        [
          domainEvent('post.deleted', {
            objectId: `post:1@${DOMAIN}`,
            objectType: 'Post',
            actorId: `@root@${DOMAIN}`,
            ownerId: `@ann@${DOMAIN}`,
          }),
        ],
      );
      const [row] = await outboxIds(app.runtime!.repos.activities);
      return { activityId: row!, events: 2 };
    },
  },
  {
    service: 'federation',
    createApp: createFederation,
    /** An accepted inbound activity: `inbox.accepted`. */
    write: async (app: ServiceApp) => {
      const ctx = createFederationContext(app.runtime!);
      await recordInbound(ctx, {
        type: 'Create',
        remoteId: 'https://peer.example/activities/1',
        actorId: 'https://peer.example/users/p',
        signerDomain: 'peer.example',
        raw: '{}',
        via: 'https://peer.example/users/p#main-key',
      });
      const [row] = await outboxIds(app.runtime!.repos.activities);
      return { activityId: row!, events: 1 };
    },
  },
])('$service', ({ service, createApp, write }) => {
  let app: ServiceApp;

  beforeAll(async () => {
    app = createApp(configFor(await databaseFile(service)), {
      shared: { bus: bus(service) },
      port: 0,
      host: '127.0.0.1',
    });
    await app.start();
  });
  afterAll(async () => {
    await brokerBack();
    await app?.[Symbol.asyncDispose]();
  });

  it("a write whose publish fails keeps its outbox row, and the service's own relay republishes it", async () => {
    const store = app.runtime!.repos.activities;
    expect(await outboxIds(store)).toEqual([]);

    await brokerAway();
    const { activityId, events } = await write(app);
    // The write is done and its events are recorded, not published.
    expect(await outboxIds(store)).toEqual([activityId]);
    const ids = Array.from({ length: events }, (_, i) => `${activityId}#${i}`);
    expect(ids.filter((id) => delivered.has(id))).toEqual([]);

    await brokerBack();
    await waitFor(
      `${service}'s relay republished ${ids.join(', ')}`,
      () => ids.every((id) => delivered.has(id)),
      30_000,
    );
    await waitFor('the outbox row is cleared', async () => (await outboxIds(store)).length === 0, 10_000);
  });
});

describe('several relays on one database (replicas)', () => {
  const dbs: Database[] = [];
  afterAll(async () => {
    await Promise.all(dbs.map((d) => d.close()));
  });

  it('publish each due row once: every relay reads every row, one claims it', async () => {
    const path = await databaseFile('replicas');
    const replica = async (n: number) => {
      const db = await openDatabase({ logger, sqlitePath: path, checkIndexes: true });
      dbs.push(db);
      return {
        bus: bus(`replica-${n}`, 20_000),
        stores: { activities: new ActivitiesStore(db.engine) },
        logger,
      };
    };
    const relays = await Promise.all([1, 2, 3].map(replica));
    const ids = Array.from({ length: 30 }, (_, i) => `activity:r${String(i).padStart(2, '0')}@${DOMAIN}`);
    // Rows as writers whose publish failed leave them.
    for (const id of ids)
      await relays[0]!.stores.activities.record({ id, type: 'Create', actorId: `@ann@${DOMAIN}` }, [
        domainEvent('user.registered', { userId: `@ann@${DOMAIN}`, username: 'ann' }),
      ]);

    // Passes of the three relays at once until the outbox is empty: a pass stops at a publish
    // that fails (a broker hiccup under load), and the row it claimed is due again at the next.
    let total = 0;
    for (let pass = 0; pass < 10 && (await outboxIds(relays[0]!.stores.activities)).length; pass++) {
      const published = await Promise.all(relays.map((r) => relayOnce(r, { graceMs: 0 })));
      total += published.reduce((a, b) => a + b, 0);
    }
    expect(total).toBe(ids.length);
    expect(await outboxIds(relays[0]!.stores.activities)).toEqual([]);

    // A marker published after the relays finished arrives after anything they sent.
    const marker = `marker-${uniqueName('m')}`;
    await relays[0]!.bus.publish('test.marker', {}, { id: marker });
    await waitFor('the marker', () => delivered.has(marker), 20_000);
    expect(ids.map((id) => delivered.get(`${id}#0`))).toEqual(ids.map(() => 1));
  });
});
