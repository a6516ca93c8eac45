/**
 * ActivityPubStore on both engines (docs/federation.md, "ActivityPub"): an actor's first key is
 * kept (a second writer reads it back), remote actors keep their first handle and make their
 * domain an ActivityPub peer, objects map both ways, follows move pending → accepted and are
 * found by their Follow's id, and a peer's signature format is remembered.
 */
import {
  AP_ACTOR_KEYS,
  AP_FOLLOWS,
  AP_PEERS,
  AP_REMOTE_ACTORS,
  AP_REMOTE_OBJECTS,
  ActivityPubStore,
  type RemoteActorRecord,
} from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

describe.each(engineFixtures())('ActivityPubStore on $name', (fx) => {
  let engine: Engine;
  let store: ActivityPubStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([AP_ACTOR_KEYS, AP_REMOTE_ACTORS, AP_REMOTE_OBJECTS, AP_FOLLOWS, AP_PEERS]);
    store = new ActivityPubStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const carol = (over: Partial<RemoteActorRecord> = {}): RemoteActorRecord => ({
    _id: 'http://peer.test/users/carol',
    handle: '@carol@peer.test',
    type: 'Person',
    name: 'Carol',
    inbox: 'http://peer.test/users/carol/inbox',
    sharedInbox: 'http://peer.test/inbox',
    followers: null,
    fetchedAt: new Date(Date.UTC(2026, 0, 1)),
    ...over,
  });

  it("keeps an actor's first key: a racing second key is not stored", async () => {
    const at = new Date(Date.UTC(2026, 0, 1));
    const first = await store.putActorKey({
      _id: '@alice@s.test',
      publicKeyPem: 'pub1',
      privateKeyPem: 'priv1',
      createdAt: at,
    });
    const second = await store.putActorKey({
      _id: '@alice@s.test',
      publicKeyPem: 'pub2',
      privateKeyPem: 'priv2',
      createdAt: at,
    });
    expect(first.publicKeyPem).toBe('pub1');
    expect(second.publicKeyPem).toBe('pub1');
    expect((await store.actorKey('@alice@s.test'))?.createdAt).toEqual(at);
    expect(await store.actorKey('@bob@s.test')).toBeNull();
  });

  it('finds remote actors by URL and handle; a refresh keeps the handle; the domain speaks ActivityPub', async () => {
    expect(await store.isActivityPubPeer('peer.test')).toBe(false);
    await store.putRemoteActor(carol());
    await store.putRemoteActor(carol({ handle: '@other@peer.test', name: 'Carol B.' }));
    const found = await store.remoteActorByHandle('@Carol@peer.test');
    expect(found).toMatchObject({
      _id: 'http://peer.test/users/carol',
      handle: '@carol@peer.test',
      name: 'Carol B.',
    });
    expect(await store.remoteActor('http://peer.test/users/carol')).toEqual(found);
    expect(await store.isActivityPubPeer('peer.test')).toBe(true);
  });

  it('maps objects both ways, the first id kept', async () => {
    await store.putObject('post:aaa@peer.test', 'http://peer.test/notes/1');
    await store.putObject('post:aaa@peer.test', 'http://peer.test/notes/other');
    expect(await store.objectIdOf('http://peer.test/notes/1')).toBe('post:aaa@peer.test');
    expect(await store.objectUrlOf('post:aaa@peer.test')).toBe('http://peer.test/notes/1');
    expect(await store.objectIdOf('http://peer.test/notes/2')).toBeNull();
  });

  it('moves a follow from pending to accepted, found by its activity id; drops it', async () => {
    await store.putFollow({
      localId: '@alice@s.test',
      remoteUrl: carol()._id,
      state: 'pending',
      activityId: 'https://s.test/f1',
    });
    const pending = await store.followByActivity('https://s.test/f1');
    expect(pending).toMatchObject({ state: 'pending', localId: '@alice@s.test' });
    await store.setFollowState(pending!._id, 'accepted');
    expect((await store.follow('@alice@s.test', carol()._id))?.state).toBe('accepted');
    await store.dropFollow('@alice@s.test', carol()._id);
    expect(await store.follow('@alice@s.test', carol()._id)).toBeNull();
  });

  it("lists a remote actor's followers here: only the follows it accepted", async () => {
    const url = 'http://peer.test/users/erin';
    const follow = (localId: string, state: 'pending' | 'accepted' | 'rejected') =>
      store.putFollow({ localId, remoteUrl: url, state, activityId: `https://s.test/${localId}` });
    await follow('@bob@s.test', 'accepted');
    await follow('@dan@s.test', 'pending');
    await follow('@eve@s.test', 'rejected');
    await store.putFollow({
      localId: '@fay@s.test',
      remoteUrl: 'http://peer.test/users/other',
      state: 'accepted',
      activityId: 'https://s.test/fay',
    });
    expect(await store.followersHereOf(url)).toEqual(['@bob@s.test']);
  });

  it("remembers a peer's signature format (draft-cavage until asked)", async () => {
    expect(await store.signatureScheme('strict.test')).toBe('draft-cavage');
    await store.setSignatureScheme('strict.test', 'rfc9421');
    expect(await store.signatureScheme('strict.test')).toBe('rfc9421');
  });
});
