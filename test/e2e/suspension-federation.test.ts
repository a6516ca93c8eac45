/**
 * What other servers are told of a suspension (ADR 0028, docs/federation.md "Account deletion
 * and suspension"): an admin's soft delete sends no Delete of the actor, only an Update marking
 * it `suspended` (the `toot:suspended` term), which the actor document also carries while it
 * lasts; the restore sends an Update without it. The full delete still sends the Delete.
 *
 * What is planned is asserted on the planner's verdict for the real events (recorded state, not
 * "nothing arrived within a while"); what arrives is checked at a Fedify peer (its own signature
 * and key checks): carol on peer.test follows alice, and a spec-protocol peer (agora.test) holds
 * a follower of hers too.
 */
import { Delete, Follow, Person, Update, type Activity } from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import type { BusMessage } from '@agora/common/messaging';
import { client, ADMIN, waitFor, type TestServer } from '../harness/standalone';
import { registerActor, type Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import { startFedifyWorld, type FedifyWorld } from '../harness/fedify-world';
import { createFederationContext } from '../../services/federation/src/context';
import {
  planAccountDeletion,
  planAccountRestore,
  type PlannedDelivery,
} from '../../services/federation/src/delivery/audience-plan';

const DOMAIN = 'social.test';
const AGORA = 'agora.test';
const AP = { accept: 'application/activity+json' };
let world: FedifyWorld;
let peer: FedifyPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let admin: string;
let alice: Actor;
let erin: Actor;
let fedCtx: Context<void>;
const enc = encodeURIComponent;
type UserEvent = BusMessage<{ userId: string; hard?: boolean; suspension?: boolean }>;
const events: UserEvent[] = [];

const rt = () => server.services[0]!.runtime!;
const fed = () => {
  const service = server.services.find((s) => s.name === 'federation');
  if (!service?.runtime) throw new Error('no federation service in the standalone wiring');
  return createFederationContext(service.runtime);
};
const urlOf = (name: string) => `http://${DOMAIN}/ap/users/${name}`;

async function eventOf(name: string, userId: string): Promise<UserEvent> {
  const find = () => events.find((m) => m.name === name && m.payload.userId === userId);
  await waitFor(() => Promise.resolve(find() !== undefined), 20_000);
  return find()!;
}

/** carol of the Fedify peer follows `who` and gets Accept. */
async function carolFollows(who: string) {
  const target = (await fedCtx.lookupObject(urlOf(who))) as Person;
  await fedCtx.sendActivity(
    { identifier: 'carol' },
    target,
    new Follow({
      id: new URL(`${peer.actorUrl('carol')}#follow-${who}`),
      actor: fedCtx.getActorUri('carol'),
      object: target.id,
    }),
  );
  const id = `@${who}@${DOMAIN}`;
  await waitFor(
    async () => (await rt().repos.followers.ofUser(id)).some((f) => f.actorId === '@carol@peer.test'),
    20_000,
  );
}

/** The activities of a plan, by the domain they go to: type, and `suspended` of their object. */
const byDomain = (planned: PlannedDelivery[]) =>
  Object.fromEntries(
    planned.map((p) => {
      const a = p.activity as unknown as { type: string; object?: unknown };
      const object =
        typeof a.object === 'object' && a.object !== null ? (a.object as Record<string, unknown>) : {};
      return [p.domain, { type: a.type, suspended: object.suspended ?? null }];
    }),
  );

const actorUpdates = (actorUrl: string): Activity[] =>
  peer.inbox.filter((a) => (a instanceof Update || a instanceof Delete) && a.actorId?.href === actorUrl);

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN);
  ({ peer, server, api, fedCtx } = world);
  await rt().bus.subscribe<{ userId: string }>(
    'test.suspension.users',
    ['user.deleted', 'user.restored'],
    (msg) => {
      events.push(msg);
      return Promise.resolve();
    },
  );
  admin = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  alice = await registerActor(api, 'alice');
  erin = await registerActor(api, 'erin');
  await carolFollows('alice');
  await carolFollows('erin');
  // A follower on a spec-protocol server (known by handle, never met as ActivityPub).
  await rt().repos.followers.add(alice.id, `@bob@${AGORA}`, {
    domain: AGORA,
    inbox: `http://${AGORA}/inbox`,
  });
});
afterAll(async () => {
  await world?.close();
});

test("a soft delete is an Update marking the actor suspended, never a Delete; the restore's Update lifts it", async () => {
  const created = await api.post<{ createdId: string }>(
    '/outbox',
    { type: 'Create', objectType: 'Post', to: '@public', object: { content: 'From the rock' } },
    { token: alice.token },
  );
  expect(created.status).toBe(201);
  const note = `/ap/objects/${enc(created.body.createdId)}`;
  expect((await api.get(note, { headers: AP })).status).toBe(200);

  expect((await api.call('DELETE', `/admin/users/${enc(alice.id)}`, { token: admin })).status).toBe(200);
  const deleted = await eventOf('user.deleted', alice.id);
  expect(deleted.payload).toMatchObject({ suspension: true });
  expect(deleted.payload.hard).toBeUndefined();

  // The planner's verdict on the real event: an Update to each server holding alice, no Delete.
  expect(byDomain(await planAccountDeletion(fed(), deleted as never))).toEqual({
    'peer.test': { type: 'Update', suspended: true },
    [AGORA]: { type: 'Update', suspended: true },
  });

  // The Fedify peer receives it, signed by alice, as an Update of a suspended Person.
  await waitFor(() => Promise.resolve(actorUpdates(urlOf('alice')).length >= 1), 20_000);
  const [update] = actorUpdates(urlOf('alice'));
  expect(update).toBeInstanceOf(Update);
  const person = await (update as Update).getObject();
  expect(person).toBeInstanceOf(Person);
  expect((person as Person).id?.href).toBe(urlOf('alice'));
  expect((person as Person).suspended).toBe(true);

  // The actor document says so too while it lasts (Fedify reads the term from its own context).
  const doc = await api.get<Record<string, unknown>>('/ap/users/alice', { headers: AP });
  expect(doc.status).toBe(200);
  expect(doc.body.suspended).toBe(true);
  // (Fedify's loader caches documents: the one fetched now is read with Fedify's JSON-LD parser.)
  const read = await Person.fromJsonLd(doc.body, { documentLoader: fedCtx.documentLoader });
  expect(read.suspended).toBe(true);
  // Nothing else of the account is served meanwhile.
  expect((await api.get('/ap/users/alice/outbox', { headers: AP })).status).toBe(404);
  expect((await api.get(note, { headers: AP })).status).toBe(404);

  expect((await api.call('POST', `/admin/users/${enc(alice.id)}/restore`, { token: admin })).status).toBe(
    200,
  );
  const restored = await eventOf('user.restored', alice.id);
  expect(byDomain(await planAccountRestore(fed(), restored as never))).toEqual({
    'peer.test': { type: 'Update', suspended: null },
    [AGORA]: { type: 'Update', suspended: null },
  });
  await waitFor(() => Promise.resolve(actorUpdates(urlOf('alice')).length >= 2), 20_000);
  const lifted = actorUpdates(urlOf('alice'));
  // Two Updates in order, and never a Delete.
  expect(lifted.map((a) => a.constructor.name)).toEqual(['Update', 'Update']);
  const after = (await (lifted[1] as Update).getObject()) as Person;
  expect(after.suspended).not.toBe(true);
  const again = await api.get<Record<string, unknown>>('/ap/users/alice', { headers: AP });
  expect(again.status).toBe(200);
  expect(again.body.suspended).toBeUndefined();
  expect((await api.get(note, { headers: AP })).status).toBe(200);
});

test('the full delete still sends the Delete of the actor', async () => {
  const res = await api.call('DELETE', `/admin/users/${enc(erin.id)}?fullDelete=true`, { token: admin });
  expect(res.status).toBe(200);
  const deleted = await eventOf('user.deleted', erin.id);
  expect(deleted.payload).toMatchObject({ hard: true });
  expect(byDomain(await planAccountDeletion(fed(), deleted as never))).toEqual({
    'peer.test': { type: 'Delete', suspended: null },
  });
  await waitFor(() => Promise.resolve(actorUpdates(urlOf('erin')).some((a) => a instanceof Delete)), 20_000);
  expect(actorUpdates(urlOf('erin')).map((a) => a.constructor.name)).toEqual(['Delete']);
});
