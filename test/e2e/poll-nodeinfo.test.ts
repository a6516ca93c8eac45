/**
 * Only compatible servers are polled (issue 23, item 4; docs/federation.md, "Compatible
 * servers"): before pulling a server, the poll worker reads its NodeInfo (once, then from the
 * server's row until it is due again) and pulls only a server that says it is Agora. A Mastodon
 * server and a server without NodeInfo are recorded as not compatible and never asked for
 * `/outbox`. Polls are run by the test (`pollOnce`), the timer being off.
 */
import { createFederationContext } from '../../services/federation/src/context';
import { pollOnce } from '../../services/federation/src/poll/worker';
import { bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { json, serveNodeInfo, startPeer, type FakePeer } from '../harness/fake-peer';

const AGORA = 'agora-peer.test';
const MASTODON = 'mastodon.test';
const SILENT = 'silent.test';
let peers: Record<string, FakePeer>;
let server: TestServer;
let bob: Actor;

const fed = () => createFederationContext(server.services.find((s) => s.name === 'federation')!.runtime!);
const row = (domain: string) => server.services[0]!.runtime!.repos.remoteServers.byDomain(domain);
const asked = (domain: string, path: string) =>
  peers[domain]!.received.filter((r) => r.method === 'GET' && r.url.startsWith(path)).length;

beforeAll(async () => {
  const empty = { type: 'OrderedCollection', items: [], tombstones: [] };
  peers = {
    [AGORA]: await startPeer((req, res) =>
      serveNodeInfo(AGORA, req, res) ? undefined : json(res, 200, empty, 'application/json'),
    ),
    [MASTODON]: await startPeer((req, res) =>
      serveNodeInfo(MASTODON, req, res, 'mastodon') ? undefined : json(res, 404, { error: 'Not found' }),
    ),
    [SILENT]: await startPeer((_req, res) => json(res, 404, { error: 'Not found' })),
  };
  server = await bootServer({
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_HOST_MAP: Object.entries(peers)
      .map(([d, p]) => `${d}=${p.address}`)
      .join(','),
    FEDERATION_POLL_SECONDS: '0',
  });
  bob = await registerActor(client(server.url), 'bob');
  // bob follows someone on each: each server's user is in a local circle, so each is a poll target.
  for (const domain of Object.keys(peers))
    expect(
      (await outbox(client(server.url), bob, { type: 'Follow', target: `@carol@${domain}` })).status,
    ).toBe(201);
});
afterAll(async () => {
  await server?.close();
  for (const p of Object.values(peers ?? {})) await p.close();
});

test('a server is polled only when its NodeInfo says it speaks this protocol, and NodeInfo is cached', async () => {
  await pollOnce(fed());
  // The Agora server: NodeInfo read, then pulled.
  expect(await row(AGORA)).toMatchObject({
    nodeinfo: { software: { name: 'agora', version: '9.9.9' }, compatible: true, error: null },
    errorCount: 0,
  });
  expect((await row(AGORA))?.lastPolledAt).toBeInstanceOf(Date);
  expect(asked(AGORA, '/outbox')).toBe(1);
  // Mastodon: recorded as what it is, not compatible, never pulled.
  expect(await row(MASTODON)).toMatchObject({
    nodeinfo: { software: { name: 'mastodon' }, protocols: ['activitypub'], compatible: false, error: null },
    lastPolledAt: null,
    nextPollAt: null,
  });
  expect(asked(MASTODON, '/outbox')).toBe(0);
  // No NodeInfo at all: the failure is recorded, and it is not pulled either.
  const silent = await row(SILENT);
  expect(silent?.nodeinfo).toMatchObject({ software: null, compatible: false });
  expect(silent?.nodeinfo?.error).toContain('answered 404');
  expect(asked(SILENT, '/outbox')).toBe(0);

  // A second poll reads no NodeInfo again (cached on the rows) and pulls only the Agora server.
  await pollOnce(fed());
  for (const domain of Object.keys(peers)) expect(asked(domain, '/.well-known/nodeinfo')).toBe(1);
  expect(asked(AGORA, '/outbox')).toBe(2);
  expect(asked(MASTODON, '/outbox') + asked(SILENT, '/outbox')).toBe(0);
});
