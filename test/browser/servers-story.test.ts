/**
 * The admin's Servers page (docs/web.md; issue 23): a peer follows a member, so this server knows
 * it; the admin opens Servers, sees the peer with when it was last heard from, blocks it with a
 * reason (the peer's next inbox request is refused), and unblocks it again.
 */
import type { Browser } from 'playwright-core';
import { ADMIN, bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { registerActor } from '../harness/actors';
import { startSigningPeer, type SigningPeer } from '../harness/fake-peer';
import { expectAccessible, launchBrowser, mainShows, personFor, screenshot, type Person } from './harness';

const PEER = 'friendly.test';
let server: TestServer;
let peer: SigningPeer;
let browser: Browser;
let admin: Person;
let sent = 0;

const fromPeer = (object: string) =>
  peer.send(`${server.url}/inbox`, {
    id: `http://${PEER}/activities/${++sent}`,
    type: 'Follow',
    actorId: `@bob@${PEER}`,
    actor: { id: `@bob@${PEER}`, inbox: `http://${PEER}/inbox` },
    object,
  });

beforeAll(async () => {
  peer = await startSigningPeer(PEER);
  [server, browser] = await Promise.all([bootServer(peer.serverEnv), launchBrowser()]);
  const api = client(server.url);
  const carol = await registerActor(api, 'carol');
  expect((await fromPeer(carol.id)).status).toBe(202);
  const repos = server.services[0]!.runtime!.repos;
  await waitFor(async () => (await repos.remoteServers.byDomain(PEER))?.lastSeenAt != null, 10_000);
  const login = await api.post<{ token: string }>('/auth/login', ADMIN);
  admin = await personFor(browser, server.url, { token: login.body.token });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await peer?.close();
});
afterEach(() => expect(admin?.problems ?? []).toEqual([]));

test('the admin sees the peer and blocks it, and its requests are refused', async () => {
  const { page } = admin;
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Servers' }).click();
  const card = page.getByTestId('server').filter({ hasText: PEER });
  await card.waitFor();
  expect(await card.textContent()).toMatch(/Last seen: .*\(inbound\)/);
  expect(await card.textContent()).toContain('answering');
  await expectAccessible(page, 'servers');

  await card.getByLabel('Reason').fill('Spam from every account');
  await card.getByRole('button', { name: `Block ${PEER}` }).click();
  await mainShows(page, 'Spam from every account');
  expect(await card.textContent()).toContain('Blocked');
  await screenshot(page, 'admin-servers');
  expect((await fromPeer('@carol@social.test')).status).toBe(403);
});

test('the admin unblocks the peer and it is heard again', async () => {
  const { page } = admin;
  const card = page.getByTestId('server').filter({ hasText: PEER });
  await card.getByRole('button', { name: 'Unblock' }).click();
  await card.getByRole('button', { name: `Block ${PEER}` }).waitFor();
  expect((await fromPeer('@carol@social.test')).status).toBe(202);
});
