/**
 * Forwarded activities accepted here (ActivityPub §7.1.2; ADR 0037), with two Fedify servers:
 * alice here follows carol of `peer.test` and holds her public post; dave of `other.test` replies
 * to it, sending his Create to carol's server only; carol's server forwards it (Fedify's
 * `forwardActivity`: the JSON as dave's server signed it, HTTP-signed by carol) to alice, and the
 * thread here holds dave's reply, taken on dave's Linked Data Signature. A forwarded body whose
 * signature fails, an unsigned one and one signed by another actor's key are refused with nothing
 * stored; the same reply pushed by dave's server too is applied once; a blocked forwarder is refused.
 */
import { signJsonLd, type Context } from '@fedify/fedify';
import { Person, type Create } from '@fedify/fedify/vocab';
import { signRequest } from '@agora/common/federation';
import { ADMIN, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import type { FedifyPeer } from '../harness/fedify-peer';
import { createOf, publicNote, startFedifyWorld, type FedifyWorld } from '../harness/fedify-world';
import { remoteObjectIdFor } from '../../services/federation/src/activitypub/ids';

const DOMAIN = 'social.test';
const INBOX = `http://${DOMAIN}/users/alice/inbox`;
let world: FedifyWorld;
let peer: FedifyPeer;
let other: FedifyPeer;
let server: TestServer;
let alice: Actor;
let fedCtx: Context<void>;
let otherCtx: Context<void>;
let noteUrl: string;

const rt = () => server.services[0]!.runtime!;
const aliceUrl = `http://${DOMAIN}/ap/users/alice`;
const carolUrl = () => peer.actorUrl('carol');
const daveUrl = () => other.actorUrl('dave');
/** Whether the reply at `url` is held here (and not deleted). */
const replyHeld = async (url: string) => {
  const reply = await rt().repos.replies.byId(remoteObjectIdFor(url, 'reply'));
  return !!reply && !reply.deletedAt;
};

/** dave's public reply to carol's post, as its Create, Linked-Data-signed by dave's key (or `signer`'s). */
async function signedReply(
  slug: string,
  signer: { peer: FedifyPeer; name: string } = { peer: other, name: 'dave' },
) {
  const url = `${daveUrl()}/notes/${slug}`;
  const create = createOf(
    publicNote(daveUrl(), url, `<p>${slug} by dave</p>`, { replyTarget: new URL(noteUrl) }),
  );
  const json = await create.toJsonLd({ format: 'compact', contextLoader: fedCtx.contextLoader });
  const keyId = new URL(`${signer.peer.actorUrl(signer.name)}#main-key`);
  const signed = await signJsonLd(json, signer.peer.keys[signer.name]!.pair.privateKey, keyId, {
    contextLoader: fedCtx.contextLoader,
  });
  return { url, body: signed as Record<string, unknown> };
}

/** POSTs a body to alice's inbox, HTTP-signed by `by` (carol of peer.test: the forwarder). */
async function deliver(body: string, by: { peer: FedifyPeer; name: string } = { peer, name: 'carol' }) {
  const headers = signRequest({
    method: 'POST',
    url: INBOX,
    body,
    keyId: `${by.peer.actorUrl(by.name)}#main-key`,
    privateKeyPem: by.peer.keys[by.name]!.pem.privateKey,
  });
  // Through the host map (fedify-peer.ts), so the request carries `Host: social.test` as signed.
  const res = await fetch(INBOX, {
    method: 'POST',
    headers: { 'content-type': 'application/activity+json', ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as { error?: string; duplicate?: boolean } };
}

beforeAll(async () => {
  // other.test's actors have Ed25519 keys too: what they send carries an Object Integrity Proof.
  world = await startFedifyWorld(DOMAIN, { other: 'other.test', otherEd25519: true });
  ({ peer, server, fedCtx } = world);
  other = world.other!;
  otherCtx = other.federation.createContext(new URL(other.origin), undefined);
  alice = await registerActor(world.api, 'alice');
  expect((await outbox(world.api, alice, { type: 'Follow', object: '@carol@peer.test' })).status).toBe(201);
  await waitFor(
    async () => (await rt().repos.activityPub.follow(alice.id, carolUrl()))?.state === 'accepted',
    20_000,
  );
  // carol's public post, held here: her thread, rooted on peer.test.
  noteUrl = `${carolUrl()}/notes/thread`;
  const aliceActor = (await fedCtx.lookupObject(aliceUrl)) as Person;
  await fedCtx.sendActivity(
    { identifier: 'carol' },
    aliceActor,
    createOf(publicNote(carolUrl(), noteUrl, '<p>carol asks</p>')),
  );
  await waitFor(async () => !!(await rt().repos.posts.byId(remoteObjectIdFor(noteUrl))), 20_000);
  // carol's server forwards the replies to her post to alice (Mastodon forwards to her followers).
  peer.onCreate = async (ctx, create: Create) => {
    const object = await create.getObject({ documentLoader: ctx.documentLoader });
    if (object?.replyTargetId?.href !== noteUrl || create.actorId?.href === carolUrl()) return;
    await ctx.forwardActivity({ identifier: 'carol' }, aliceActor, { skipIfUnsigned: true });
  };
});
afterAll(async () => {
  await world?.close();
});

test("dave's reply to carol's post, forwarded by carol's server, joins her thread here", async () => {
  const replyUrl = `${daveUrl()}/notes/through-carol`;
  const carol = (await otherCtx.lookupObject(carolUrl())) as Person;
  await otherCtx.sendActivity(
    { identifier: 'dave' },
    carol,
    createOf(publicNote(daveUrl(), replyUrl, '<p>dave answers carol</p>', { replyTarget: new URL(noteUrl) })),
  );
  await waitFor(() => replyHeld(replyUrl), 20_000);
  const reply = await rt().repos.replies.byId(remoteObjectIdFor(replyUrl, 'reply'));
  expect(reply).toMatchObject({ actorId: '@dave@other.test', target: remoteObjectIdFor(noteUrl) });
  expect(reply?.body).toContain('dave answers carol');
  // Taken on dave's own signature, carol's server the forwarder.
  const recorded = await rt().repos.activities.byRemoteId(`${replyUrl}#create#forwarded-by:peer.test`);
  expect(recorded?.inbound?.keyId).toContain(`${daveUrl()}#main-key (Linked Data Signature; forwarded by`);
});

test('a forward that carries only its author’s Object Integrity Proof is taken on it; a changed one is refused', async () => {
  const url = `${daveUrl()}/notes/proven`;
  // dave's server pushes it to alice itself: refused (not its thread), its body kept as received.
  await otherCtx.sendActivity(
    { identifier: 'dave' },
    (await otherCtx.lookupObject(aliceUrl)) as Person,
    createOf(publicNote(daveUrl(), url, '<p>proven by dave</p>', { replyTarget: new URL(noteUrl) })),
  );
  let original: string | undefined;
  await waitFor(async () => {
    original = (await rt().repos.activities.byRemoteId(`${url}#create`))?.original;
    return !!original;
  }, 20_000);
  const body = JSON.parse(original!) as Record<string, unknown>;
  expect(body.proof).toMatchObject({ cryptosuite: 'eddsa-jcs-2022' });
  delete body.signature;

  const changed = structuredClone(body);
  (changed.object as Record<string, unknown>).content = '<p>not proven</p>';
  const refused = await deliver(JSON.stringify(changed));
  expect(refused.status).toBe(401);
  expect(refused.body.error).toMatch(/Object Integrity Proof does not verify/);

  expect((await deliver(JSON.stringify(body))).status).toBe(202);
  await waitFor(() => replyHeld(url), 20_000);
  expect((await rt().repos.replies.byId(remoteObjectIdFor(url, 'reply')))?.body).toContain('proven by dave');
  const recorded = await rt().repos.activities.byRemoteId(`${url}#create#forwarded-by:peer.test`);
  expect(recorded?.inbound?.keyId).toMatch(/ \(Object Integrity Proof; forwarded by /);
});

test('the same reply pushed by its author and forwarded by the thread’s server is applied once', async () => {
  const { url, body } = await signedReply('twice');
  const json = JSON.stringify(body);
  const replies = async () => (await rt().repos.posts.byId(remoteObjectIdFor(noteUrl)))?.replyCount ?? 0;
  const before = await replies();
  // dave's server pushes it itself: refused, only peer.test speaks for carol's thread here.
  expect((await deliver(json, { peer: other, name: 'dave' })).status).toBe(202);
  await waitFor(async () => {
    const direct = await rt().repos.activities.byRemoteId(`${url}#create`);
    return direct?.inbound?.status === 'rejected';
  }, 20_000);
  expect(await replyHeld(url)).toBe(false);
  // Forwarded by carol: applied; forwarded again: a duplicate, applied no more.
  expect(await deliver(json)).toMatchObject({ status: 202 });
  await waitFor(() => replyHeld(url), 20_000);
  expect((await deliver(json)).body.duplicate).toBe(true);
  expect(await replies()).toBe(before + 1);
});

test('an unsigned forwarded reply is read from its origin: what dave’s server serves is kept, not the forwarded body; its Delete is taken once the origin no longer serves it', async () => {
  const { url, body } = await signedReply('unsigned-served');
  delete body.signature;
  (body.object as Record<string, unknown>).content = '<p>put in dave’s mouth</p>';
  other.notes.set(
    url,
    publicNote(daveUrl(), url, '<p>as dave wrote it</p>', { replyTarget: new URL(noteUrl) }),
  );
  expect((await deliver(JSON.stringify(body))).status).toBe(202);
  await waitFor(() => replyHeld(url), 20_000);
  const reply = await rt().repos.replies.byId(remoteObjectIdFor(url, 'reply'));
  expect(reply?.body).toContain('as dave wrote it');
  expect(reply?.body).not.toContain('put in');
  const recorded = await rt().repos.activities.byRemoteId(`${url}#create#forwarded-by:peer.test`);
  expect(recorded?.inbound?.keyId).toContain('(read from its origin; forwarded by');

  const remove = JSON.stringify({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${url}#delete`,
    type: 'Delete',
    actor: daveUrl(),
    to: ['https://www.w3.org/ns/activitystreams#Public'],
    object: { id: url, type: 'Tombstone' },
  });
  const early = await deliver(remove);
  expect(early.status).toBe(401);
  expect(early.body.error).toMatch(/the object's origin still serves it \(HTTP 200\)/);
  expect(await replyHeld(url)).toBe(true);
  other.notes.delete(url);
  expect((await deliver(remove)).status).toBe(202);
  await waitFor(async () => !(await replyHeld(url)), 20_000);
});

test('a signed forward whose context renames its terms is read as its author signed it', async () => {
  // dave's reply with a content warning, marked sensitive, as dave's server signs it.
  const url = `${daveUrl()}/notes/renamed`;
  const json = (await createOf(
    publicNote(daveUrl(), url, '<p>the text dave wrote</p>', { replyTarget: new URL(noteUrl) }),
  ).toJsonLd({ format: 'compact', contextLoader: fedCtx.contextLoader })) as Record<string, unknown>;
  json['@context'] = [...(json['@context'] as unknown[]), { sensitive: 'as:sensitive' }];
  Object.assign(json.object as object, { summary: 'dave’s warning', sensitive: true });
  const keyId = new URL(`${daveUrl()}#main-key`);
  const signed = (await signJsonLd(json, other.keys.dave!.pair.privateKey, keyId, {
    contextLoader: fedCtx.contextLoader,
  })) as Record<string, unknown>;
  // The forwarder keeps the graph (so the signature) and renames the keys: `sensitive` becomes an
  // unknown `zz_flag`, the text and the warning change places.
  const forged = structuredClone(signed);
  forged['@context'] = [
    ...(forged['@context'] as unknown[]),
    { zz_flag: 'as:sensitive', content: 'as:summary', summary: 'as:content' },
  ];
  const object = forged.object as Record<string, unknown>;
  const { sensitive, content, summary } = object;
  delete object.sensitive;
  Object.assign(object, { zz_flag: sensitive, content: summary, summary: content });
  expect((await deliver(JSON.stringify(forged))).status).toBe(202);
  await waitFor(() => replyHeld(url), 20_000);
  const reply = await rt().repos.replies.byId(remoteObjectIdFor(url, 'reply'));
  expect(reply?.body).toContain('the text dave wrote');
  expect(reply).toMatchObject({ contentWarning: 'dave’s warning', sensitive: true });
  // What is kept to be forwarded on is the body as received: its signature verifies for others.
  const recorded = await rt().repos.activities.byRemoteId(`${url}#create#forwarded-by:peer.test`);
  expect(JSON.parse(recorded!.original!)).toEqual(forged);
});

test('a signed forward too large to canonicalise here is read from its origin instead', async () => {
  const { url, body } = await signedReply('large');
  (body.object as Record<string, unknown>).content = `<p>${'long '.repeat(20_000)}</p>`;
  // Not canonicalised (its signature would not verify, changed as it is): its origin is asked.
  const unserved = await deliver(JSON.stringify(body));
  expect(unserved.status).toBe(401);
  expect(unserved.body.error).toMatch(/the object's origin does not serve it \(HTTP 404\)/);
  other.notes.set(
    url,
    publicNote(daveUrl(), url, '<p>short, as served</p>', { replyTarget: new URL(noteUrl) }),
  );
  expect((await deliver(JSON.stringify(body))).status).toBe(202);
  await waitFor(() => replyHeld(url), 20_000);
  expect((await rt().repos.replies.byId(remoteObjectIdFor(url, 'reply')))?.body).toContain(
    'short, as served',
  );
});

test('an unsigned forwarded Delete of a post held here for its addressees only is refused on a 404: the origin answers so for a post its reader may not see', async () => {
  const url = `${daveUrl()}/notes/direct`;
  const aliceActor = (await otherCtx.lookupObject(aliceUrl)) as Person;
  await otherCtx.sendActivity(
    { identifier: 'dave' },
    aliceActor,
    createOf(publicNote(daveUrl(), url, '<p>for alice only</p>', { to: new URL(aliceUrl) }), {
      to: new URL(aliceUrl),
    }),
  );
  const postId = remoteObjectIdFor(url);
  await waitFor(async () => !!(await rt().repos.posts.byId(postId)), 20_000);
  expect((await rt().repos.posts.byId(postId))?.to).not.toBe('@public');
  const remove = JSON.stringify({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${url}#delete`,
    type: 'Delete',
    actor: daveUrl(),
    to: [aliceUrl],
    object: { id: url, type: 'Tombstone' },
  });
  const res = await deliver(remove);
  expect(res.status).toBe(401);
  expect(res.body.error).toMatch(/answers 404, as it does for a post this server may not see/);
  const post = await rt().repos.posts.byId(postId);
  expect(post?.deletedAt ?? null).toBeNull();
});

test('a forwarded edit older than the one held is not applied: a replayed Update does not roll an edit back', async () => {
  const { url, body } = await signedReply('edited');
  expect((await deliver(JSON.stringify(body))).status).toBe(202);
  await waitFor(() => replyHeld(url), 20_000);
  const replyId = remoteObjectIdFor(url, 'reply');
  /** dave's Update of his reply, edited at `updated`, Linked-Data-signed by dave's key. */
  const update = async (n: number, updated: string) => {
    const json = structuredClone(body);
    delete json.signature;
    Object.assign(json, { id: `${url}#update-${n}`, type: 'Update' });
    Object.assign(json.object as object, { content: `<p>edit ${n}</p>`, updated });
    const keyId = new URL(`${daveUrl()}#main-key`);
    return signJsonLd(json, other.keys.dave!.pair.privateKey, keyId, { contextLoader: fedCtx.contextLoader });
  };
  const u1 = await update(1, '2026-01-01T00:00:01Z');
  const u2 = await update(2, '2026-01-01T00:00:02Z');
  const bodyOf = async () => (await rt().repos.replies.byId(replyId))?.body ?? '';
  expect((await deliver(JSON.stringify(u1))).status).toBe(202);
  await waitFor(async () => (await bodyOf()).includes('edit 1'), 20_000);
  expect((await deliver(JSON.stringify(u2))).status).toBe(202);
  await waitFor(async () => (await bodyOf()).includes('edit 2'), 20_000);
  // u1 again, as another server forwards it (or late): not newer than the edit held.
  const again = { ...u1, id: `${url}#update-1-again` };
  const replayed = await signJsonLd(
    (({ signature: _s, ...rest }) => rest)(again),
    other.keys.dave!.pair.privateKey,
    new URL(`${daveUrl()}#main-key`),
    { contextLoader: fedCtx.contextLoader },
  );
  expect((await deliver(JSON.stringify(replayed))).status).toBe(202);
  await waitFor(async () => {
    const recorded = await rt().repos.activities.byRemoteId(`${url}#update-1-again#forwarded-by:peer.test`);
    return !!recorded?.inbound?.status && recorded.inbound.status !== 'accepted';
  }, 20_000);
  const recorded = await rt().repos.activities.byRemoteId(`${url}#update-1-again#forwarded-by:peer.test`);
  expect(recorded?.inbound).toMatchObject({ status: 'ignored' });
  expect(await bodyOf()).toContain('edit 2');
});

describe('a forwarded activity that does not carry its actor’s own signature is refused, nothing stored', () => {
  let logged = 0;
  beforeEach(async () => {
    logged = await rt().repos.activities.count();
  });
  const nothingStored = async (url: string) => {
    expect(await replyHeld(url)).toBe(false);
    expect(await rt().repos.activities.count()).toBe(logged);
  };

  test('a body changed after dave signed it', async () => {
    const { url, body } = await signedReply('tampered');
    const object = body.object as Record<string, unknown>;
    object.content = '<p>not what dave said</p>';
    const res = await deliver(JSON.stringify(body));
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/Linked Data Signature does not verify/);
    await nothingStored(url);
  });

  test('an unsigned body whose object its origin does not serve', async () => {
    const { url, body } = await signedReply('unsigned');
    delete body.signature;
    const res = await deliver(JSON.stringify(body));
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/the object's origin does not serve it \(HTTP 404\)/);
    await nothingStored(url);
  });

  test('an unsigned body whose object its origin serves as another actor’s', async () => {
    const { url, body } = await signedReply('not-daves');
    delete body.signature;
    other.notes.set(url, publicNote(other.actorUrl('carol'), url, '<p>carol of other.test</p>'));
    const res = await deliver(JSON.stringify(body));
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/the object its origin serves is not the actor's/);
    await nothingStored(url);
  });

  test("dave's reply signed with carol's key", async () => {
    const { url, body } = await signedReply('carol-signed', { peer, name: 'carol' });
    const res = await deliver(JSON.stringify(body));
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/Linked Data Signature's key is not on the activity's actor's domain/);
    await nothingStored(url);
  });

  test('a context this server does not hold', async () => {
    const { url, body } = await signedReply('elsewhere');
    body['@context'] = [...(body['@context'] as unknown[]), 'https://example.invalid/ns'];
    const res = await deliver(JSON.stringify(body));
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/JSON-LD context https:\/\/example\.invalid\/ns is not known here/);
    await nothingStored(url);
  });
});

test('a blocked forwarder, or a blocked author, is refused with nothing stored', async () => {
  const admin = (await world.api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
  const block = async (domain: string, blocked: boolean) => {
    const res = await world.api.call('PATCH', `/admin/servers/${domain}`, {
      token: admin,
      body: { blocked, ...(blocked ? { reason: 'test' } : {}) },
    });
    expect(res.status).toBe(200);
  };
  for (const domain of ['peer.test', 'other.test']) {
    const { url, body } = await signedReply(`blocked-${domain}`);
    await block(domain, true);
    const res = await deliver(JSON.stringify(body));
    await block(domain, false);
    expect(res).toMatchObject({
      status: 403,
      body: { error: 'This server does not accept activities from your domain' },
    });
    expect(await rt().repos.activities.byRemoteId(`${url}#create#forwarded-by:peer.test`)).toBeNull();
    expect(await replyHeld(url)).toBe(false);
  }
});
