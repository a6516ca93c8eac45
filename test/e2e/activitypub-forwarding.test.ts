/**
 * Inbox forwarding (ActivityPub §7.1.2; docs/federation.md, "ActivityPub"), with two Fedify
 * servers: carol of `peer.test` replies to alice's public post here; dave of `other.test` follows
 * alice. The reply (and its edit and removal) reaches `other.test` as the very activity carol's
 * server sent, with its Linked Data Signature, forwarded by alice: Fedify's inbox there accepts
 * it only because that signature is carol's (alice's HTTP signature speaks for no actor of
 * `peer.test`). A reply that is not public is not forwarded.
 */
import { Delete, Follow, Person, Tombstone, Update, type Activity, type Create } from '@fedify/fedify/vocab';
import type { Context } from '@fedify/fedify';
import { client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import { createOf, publicNote, startFedifyWorld, type FedifyWorld } from '../harness/fedify-world';
import { remoteObjectIdFor } from '../../services/federation/src/activitypub/ids';

const DOMAIN = 'social.test';
let world: FedifyWorld;
let peer: FedifyPeer;
let other: FedifyPeer;
let server: TestServer;
let api: ReturnType<typeof client>;
let alice: Actor;
let fedCtx: Context<void>;
let otherCtx: Context<void>;
let postUrl: string;
let postId: string;

const rt = () => server.services[0]!.runtime!;
const aliceUrl = `http://${DOMAIN}/ap/users/alice`;
const carolUrl = () => peer.actorUrl('carol');

const carolSends = async (activity: Activity) =>
  fedCtx.sendActivity({ identifier: 'carol' }, (await fedCtx.lookupObject(aliceUrl)) as Person, activity);
/** The activity with this id once it reached `other.test`'s inbox (past Fedify's checks there). */
async function atOther(id: string): Promise<Activity> {
  let found: Activity | undefined;
  await waitFor(() => {
    found = other.inbox.find((a) => a.id?.href === id);
    return Promise.resolve(!!found);
  }, 20_000);
  return found!;
}
const replyCount = async () =>
  (await api.get<{ replyCount?: number }>(`/posts/${encodeURIComponent(postId)}`, { token: alice.token }))
    .body.replyCount ?? 0;

beforeAll(async () => {
  world = await startFedifyWorld(DOMAIN, { other: 'other.test' });
  ({ peer, server, api, fedCtx } = world);
  other = world.other!;
  otherCtx = other.federation.createContext(new URL(other.origin), undefined);
  alice = await registerActor(api, 'alice');
  // dave of other.test follows alice.
  const target = (await otherCtx.lookupObject(aliceUrl)) as Person;
  await otherCtx.sendActivity(
    { identifier: 'dave' },
    target,
    new Follow({
      id: new URL(`${other.actorUrl('dave')}#follow-alice`),
      actor: otherCtx.getActorUri('dave'),
      object: target.id,
    }),
  );
  await waitFor(async () => (await rt().repos.followers.ofUser(alice.id)).length === 1, 20_000);
  const res = await outbox(api, alice, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: 'a thread' },
  });
  postId = res.body.createdId!;
  postUrl = `http://${DOMAIN}/ap/objects/${encodeURIComponent(postId)}`;
  // Her post reached dave: other.test is a server that follows her.
  await waitFor(() => Promise.resolve(other.inbox.some((a) => a.objectId?.href === postUrl)), 20_000);
});
afterAll(async () => {
  await world?.close();
});

test("carol's public reply reaches dave's server as carol's own signed Create, forwarded by alice; so do its edit and removal", async () => {
  const replyUrl = `${carolUrl()}/notes/forward-me`;
  const reply = publicNote(carolUrl(), replyUrl, '<p>a reply for the whole thread</p>', {
    replyTarget: new URL(postUrl),
  });
  await carolSends(createOf(reply));
  const created = (await atOther(`${replyUrl}#create`)) as Create;
  expect(created.actorId?.href).toBe(carolUrl());
  const note = await created.getObject({ documentLoader: otherCtx.documentLoader });
  expect(String(note?.content)).toContain('a reply for the whole thread');
  expect(note?.replyTargetId?.href).toBe(postUrl);
  // Applied here too, as any reply.
  expect(await replyCount()).toBe(1);
  expect(await rt().repos.replies.byId(remoteObjectIdFor(replyUrl, 'reply'))).not.toBeNull();

  await carolSends(
    new Update({
      id: new URL(`${replyUrl}#update`),
      actor: new URL(carolUrl()),
      to: reply.toId,
      object: publicNote(carolUrl(), replyUrl, '<p>edited</p>', { replyTarget: new URL(postUrl) }),
    }),
  );
  expect(await atOther(`${replyUrl}#update`)).toBeInstanceOf(Update);

  await carolSends(
    new Delete({
      id: new URL(`${replyUrl}#delete`),
      actor: new URL(carolUrl()),
      to: reply.toId,
      object: new Tombstone({ id: new URL(replyUrl) }),
    }),
  );
  expect(await atOther(`${replyUrl}#delete`)).toBeInstanceOf(Delete);
  await waitFor(async () => (await replyCount()) === 0, 20_000);
});

test('a reply that is not public is not forwarded', async () => {
  const hushUrl = `${carolUrl()}/notes/hush`;
  // Addressed to alice alone, the Create as its Note.
  const alone = { to: new URL(aliceUrl) };
  await carolSends(
    createOf(
      publicNote(carolUrl(), hushUrl, '<p>between us</p>', { replyTarget: new URL(postUrl), ...alone }),
      alone,
    ),
  );
  // A public one after it: once it has reached dave's server, the first was planned long before.
  const loudUrl = `${carolUrl()}/notes/loud`;
  await carolSends(
    createOf(publicNote(carolUrl(), loudUrl, '<p>for everyone</p>', { replyTarget: new URL(postUrl) })),
  );
  await atOther(`${loudUrl}#create`);
  expect(other.inbox.some((a) => a.id?.href === `${hushUrl}#create`)).toBe(false);
});
