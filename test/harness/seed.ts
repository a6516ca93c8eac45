/**
 * A small server's worth of data written through the real stores, one or more documents in every
 * collection of STORE_SPECS, with the awkward values a copy between engines must keep: dates at
 * top level, nested (`event.startDate`) and inside arrays (`members.addedAt`,
 * `redemptions.redeemedAt`), integers past 2^32, fractions, negatives, null beside missing, empty
 * objects and arrays, unicode, and an admin's JSON setting whose keys look like Extended JSON
 * type wrappers. `seedStores` returns the named fixtures tests read back through the stores.
 */
import { LISTS, type Stores } from '@agora/common/db';
import { plain } from './stored';

export interface Seeded {
  domain: string;
  users: { alice: string; bob: string; carol: string; dave: string };
  circle: string;
  posts: { bobPublic: string; bobServer: string; aliceEvent: string; remote: string; deleted: string };
  reply: string;
  file: string;
  group: string;
  page: string;
  bookmark: string;
  section: string;
  invite: string;
}

const D1 = new Date('2026-03-01T10:00:00.123Z');
const at = (s: number) => new Date(D1.getTime() + s * 1000);

export async function seedStores(repos: Stores, domain: string): Promise<Seeded> {
  const id = (kind: string, name: string) => `${kind}:${name}@${domain}`;
  const users = {
    alice: `@alice@${domain}`,
    bob: `@bob@${domain}`,
    carol: `@carol@${domain}`,
    dave: '@dave@remote.test',
  };
  await repos.settings.ensureDefaults({ domain, siteTitle: 'Café «Agora» ☕' });
  await repos.settings.set('seedRatio', 0.75);
  await repos.settings.set('seedJson', { nested: { list: [1, 'two', null, { three: [] }] }, empty: {} });

  await repos.users.create({
    id: users.alice,
    username: 'alice',
    domain,
    password: 'hash-alice',
    email: 'alice@example.test',
    profile: { name: 'Alice Ünïcødé', icon: '', fields: [], links: { empty: {} } },
  } as never);
  await repos.users.create({ id: users.bob, username: 'bob', domain, password: 'hash-bob' });
  await repos.users.create({ id: users.carol, username: 'carol', domain, password: 'hash-carol' });
  await repos.users.markLogin(users.alice);
  await repos.users.setVerificationToken('alice@example.test', domain, 'token-hash', at(3600));
  await repos.users.deactivate(users.carol, users.alice);

  const member = (who: string, name: string) => ({
    id: who,
    type: 'Person',
    name,
    icon: '',
    url: `https://${domain}/users/${name}`,
    inbox: `https://${domain}/users/${name}/inbox`,
    outbox: `https://${domain}/users/${name}/outbox`,
    server: `@${domain}`,
  });
  const circle = await repos.circles.create({
    name: 'Close ✓',
    actorId: users.alice,
    to: users.alice,
    summary: '',
    members: [member(users.bob, 'bob')],
  });
  await repos.circles.addMember(circle.id, member(users.dave, 'dave'));
  await repos.circles.setLastSeen(circle.id, at(5));

  const note = (n: number, actorId: string, to: string, extra: Record<string, unknown> = {}) => ({
    id: id('post', `seed${n}`),
    actorId,
    to,
    canReply: to,
    canReact: to,
    type: 'Note',
    title: n === 1 ? '2026-01-01T00:00:00.000Z' : null,
    source: { content: `post **${n}** ✓ \u{1F600}\nline "two"`, mediaType: 'text/markdown' },
    body: `<p>post <strong>${n}</strong></p>`,
    publishedAt: at(60 * n),
    ...extra,
  });
  const bobPublic = await repos.posts.createLocal(note(1, users.bob, '@public'));
  const bobServer = await repos.posts.createLocal(note(2, users.bob, `@${domain}`));
  const aliceEvent = await repos.posts.createLocal(
    note(3, users.alice, '@public', {
      type: 'Event',
      event: { startDate: at(86_400), endDate: null },
      location: { name: 'Hall', latitude: 48.8566, longitude: -2.3522, altitude: null },
    }),
  );
  const deleted = await repos.posts.createLocal(note(4, users.bob, '@public'));
  await repos.posts.softDeletePost(deleted.id, users.bob);
  const remote = await repos.posts.createRemote({
    ...note(5, users.dave, '@public'),
    id: 'https://remote.test/notes/5',
    originDomain: 'remote.test',
    server: '@remote.test',
    actor: { id: users.dave, name: 'Dave', server: '@remote.test' },
  });

  const reply = await repos.replies.create({
    id: id('reply', 'seed1'),
    target: bobPublic.id,
    actorId: users.alice,
    to: '@public',
    source: { content: 'a reply', mediaType: 'text/markdown' },
    body: '<p>a reply</p>',
  });
  await repos.posts.bumpReplies(bobPublic.id, 1);
  await repos.reacts.add({
    id: id('react', 'seed1'),
    actorId: users.alice,
    target: bobPublic.id,
    emoji: '🎉',
  });

  const group = await repos.groups.create({
    id: id('group', 'club'),
    name: 'Club',
    actorId: users.bob,
    to: '@public',
    canReply: '@public',
    canReact: '@public',
  });
  const page = await repos.pages.create({
    id: id('page', 'about'),
    name: 'About',
    slug: 'about',
    actorId: users.alice,
    to: '@public',
    source: { content: '# About', mediaType: 'text/markdown' },
  });
  const bookmark = await repos.bookmarks.create({
    id: id('bookmark', 'docs'),
    name: 'Docs',
    href: 'https://example.test/docs?q=a&b=c',
    actorId: users.alice,
    to: users.alice,
  });

  const file = repos.files.mintId();
  const size = 5_000_000_123;
  if (!(await repos.files.reserve(users.alice, size, 10_000_000_000))) throw new Error('seed: quota');
  await repos.files.create(file, {
    actorId: users.alice,
    type: 'Image',
    name: 'photo.png',
    summary: '',
    mediaType: 'image/png',
    size,
    width: 4000,
    height: 3000,
    checksum: 'a'.repeat(64),
    storageKey: `files/${file}`,
    preview: {
      key: `files/${file}.preview`,
      mediaType: 'image/webp',
      size: 1234,
      width: 400,
      height: 300,
    },
    color: '#aabbcc',
    to: '@public',
  });
  await repos.files.attach(users.alice, [file], aliceEvent.id);

  await repos.search.upsert({
    _id: bobPublic.id,
    kind: 'Post',
    terms: ['post', 'seed', 'ünïcødé'],
    to: '@public',
    actorId: users.bob,
    at: bobPublic.publishedAt,
  });
  await repos.notifications.create({
    id: id('notification', 'seed1'),
    type: 'reply',
    recipientId: users.bob,
    actorId: users.alice,
    actorName: 'Alice',
    objectId: reply.id,
    summary: 'Alice replied',
    href: `/posts/${bobPublic.id}`,
    groupKey: `reply:${bobPublic.id}`,
    eventId: `seed:1|reply|${users.bob}`,
  });
  await repos.activities.record(
    {
      id: id('activity', 'seed1'),
      type: 'Create',
      actorId: users.bob,
      objectType: 'Post',
      objectId: bobPublic.id,
      to: '@public',
      // The handler's result, free-form: here the post as created, dates included.
      object: { ...bobPublic, counts: { replies: 1, negative: -2, ratio: 0.5 } },
    },
    [{ name: 'post.created', payload: { postId: bobPublic.id, nested: { list: [1, null, 'x'] } } }],
  );
  await repos.activities.record(
    {
      id: id('activity', 'seed2'),
      type: 'Create',
      actorId: users.dave,
      remoteId: 'https://remote.test/activities/5',
      raw: JSON.stringify({ type: 'Create', published: '2026-03-01T10:00:00Z' }),
      inbound: { status: 'processed', keyId: 'https://remote.test/users/dave#main-key', receivedAt: at(1) },
    },
    [],
  );
  await repos.activities.setInbound(id('activity', 'seed2'), {
    status: 'processed',
    receivedAt: at(1),
    processedAt: at(2),
  });
  await repos.followers.add(users.alice, users.dave, {
    domain: 'remote.test',
    inbox: 'https://remote.test/users/dave/inbox',
  });
  await repos.remoteServers.claimPoll('remote.test', at(0), at(300));
  await repos.remoteServers.pollFailed('remote.test', 3, 'timeout after 10 s', at(600));
  // An actor its server suspended (ADR 0028); it wrote nothing here, so no read below changes.
  await repos.remoteSuspensions.suspend('@erin@remote.test', at(650));
  await repos.parkedDeliveries.hold({
    key: 'post:held@seed.test>https://remote.test/inbox',
    domain: 'remote.test',
    objectKey: 'post:held@seed.test',
    plannedAt: at(700).toISOString(),
    job: {
      inbox: 'https://remote.test/inbox',
      activity: { id: 'activity:held', type: 'Create' },
      attempt: 2,
    },
    attempts: 2,
    notBefore: at(800),
    lastError: '503 Service Unavailable',
  });

  await repos.flags.create({
    id: id('flag', 'seed1'),
    target: bobPublic.id,
    targetType: 'Post',
    targetActorId: users.bob,
    reason: { code: 'spam', label: 'Spam' },
    notes: '',
    actorId: users.alice,
  });
  const invite = id('invite', 'seed1');
  await repos.invites.create({
    id: invite,
    actorId: users.alice,
    type: 'open',
    code: 'SEED-CODE-1',
    maxRedemptions: 5,
    expiresAt: at(7 * 86_400),
  });
  if (!(await repos.invites.claim({ id: invite }, 5, { userId: users.bob, email: null })))
    throw new Error('seed: invite claim');
  const section = id('section', 'picks');
  await repos.sections.create({ id: section, name: 'Picks', to: '@public', actorId: users.alice, order: 2 });
  await repos.recommendations.create({
    id: id('recommendation', 'seed1'),
    section,
    ref: bobPublic.id,
    refType: 'Post',
    visibility: 'public',
    actorId: users.alice,
    note: 'worth a read',
  });
  await repos.idempotency.claim(users.bob, 'key-1', 'body-hash');
  await repos.idempotency.complete(users.bob, 'key-1', {
    status: 201,
    response: {
      id: bobPublic.id,
      published: bobPublic.publishedAt,
      nested: { ok: true, none: null, list: [] },
    },
  });
  await repos.linkPreviews.put('c0ffee', {
    url: 'https://example.test/a',
    data: { title: 'A page', image: null, sizes: [16, 32] },
    failure: null,
    fetchedAt: at(10),
  });
  // ActivityPub: an actor key, a remote actor met by URL (and so its peer row), an object's id,
  // a pending follow and a peer's signature format.
  await repos.activityPub.putActorKey({
    _id: users.alice,
    publicKeyPem: 'seed-public',
    privateKeyPem: 'seed-private',
    createdAt: at(11),
  });
  await repos.activityPub.putRemoteActor({
    _id: 'https://remote.test/users/zoe',
    handle: '@zoe@remote.test',
    type: 'Person',
    name: 'Zoë',
    inbox: 'https://remote.test/users/zoe/inbox',
    sharedInbox: null,
    followers: 'https://remote.test/users/zoe/followers',
    fetchedAt: at(12),
  });
  await repos.activityPub.putObject(
    'post:0123456789abcdef01234567@remote.test',
    'https://remote.test/notes/1',
  );
  await repos.activityPub.putFollow({
    localId: users.alice,
    remoteUrl: 'https://remote.test/users/zoe',
    state: 'pending',
    activityId: `https://${domain}/ap/users/alice#follow-seed`,
  });
  await repos.activityPub.setSignatureScheme('remote.test', 'rfc9421');
  // A finished backup job: its history (and the freed slot) move with a migrated database.
  const queued = await repos.backupJobs.queue('backup', users.alice);
  if (!('job' in queued)) throw new Error('seed: backup job');
  const job = queued.job._id;
  if ((await repos.backupJobs.acquire(job, 'seed-worker', 60_000)) !== 'acquired')
    throw new Error('seed: lease');
  await repos.backupJobs.finish(job, 'seed-worker', {
    archiveKey: 'backups/backup-seed.tar.gz',
    archiveName: 'backup-seed.tar.gz',
    archiveSize: 1234,
    progress: { stage: 'done', pct: 100, counts: { collections: 29, documents: 100 } },
  });

  return {
    domain,
    users,
    circle: circle.id,
    posts: {
      bobPublic: bobPublic.id,
      bobServer: bobServer.id,
      aliceEvent: aliceEvent.id,
      remote: remote.id,
      deleted: deleted.id,
    },
    reply: reply.id,
    file,
    group: group.id,
    page: page.id,
    bookmark: bookmark.id,
    section,
    invite,
  };
}

/** What the stores answer about the seeded data: the same on every engine the data went through. */
export async function readSeeded(repos: Stores, s: Seeded) {
  const page = { skip: 0, limit: 20 };
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);
  const members = new Set([s.users.alice, s.users.bob, s.users.dave]);
  const timeline = await repos.timelines.page(s.circle, members, () => true, { limit: 10, local: true });
  const alice = await repos.users.findById(s.users.alice);
  const bob = await repos.users.findById(s.users.bob);
  const circle = await repos.circles.findById(s.circle);
  const event = await repos.posts.byId(s.posts.aliceEvent);
  const notifications = await repos.notifications.pageFor(s.users.bob, {}, page);
  const admin = await repos.activities.pageForAdmin({}, page);
  return plain({
    timeline: { ids: ids(timeline.items), total: timeline.total, more: timeline.more },
    timelineHead: await repos.lists.head(LISTS.circle(s.circle)),
    alice: {
      postCount: alice?.postCount,
      lastLogin: alice?.lastLogin,
      profile: alice?.profile,
      email: alice?.email,
    },
    bob: { postCount: bob?.postCount, publicPostCount: bob?.publicPostCount },
    carol: await repos.users.findById(s.users.carol),
    users: (await repos.users.pageForAdmin({}, page)).total,
    circle: { memberCount: circle?.memberCount, members: circle?.members, lastSeenAt: circle?.lastSeenAt },
    memberships: await repos.circles.membershipsOf(s.users.dave),
    event: { event: event?.event, location: event?.location, circles: event?.circles },
    deleted: await repos.posts.byId(s.posts.deleted),
    remote: await repos.posts.remoteCopy(s.posts.remote),
    thread: ids((await repos.replies.pageForThread(s.posts.bobPublic, page)).items),
    reacts: (await repos.reacts.pageForTarget(s.posts.bobPublic, page)).items,
    file: await repos.files.findPublic(s.file),
    usage: await repos.files.usageOf(s.users.alice),
    search: (await repos.search.withTerm('ünïcødé', undefined, 10)).map((e) => e._id),
    notifications: { total: notifications.total, items: notifications.items },
    unread: await repos.notifications.unreadCount(s.users.bob),
    activities: { total: admin.total, ids: ids(admin.items) },
    outbox: await repos.activities.due(new Date('2100-01-01'), 10),
    settings: {
      json: await repos.settings.get('seedJson'),
      ratio: await repos.settings.get('seedRatio'),
      title: await repos.settings.get('siteTitle'),
    },
    followers: await repos.followers.ofUser(s.users.alice),
    server: await repos.remoteServers.byDomain('remote.test'),
    flags: await repos.flags.countOpen(),
    invite: await repos.invites.byCode('SEED-CODE-1'),
    shelf: ids(await repos.recommendations.shelf(s.section)),
    idempotency: await repos.idempotency.find(s.users.bob, 'key-1'),
    preview: await repos.linkPreviews.get('c0ffee'),
    activityPub: {
      key: await repos.activityPub.actorKey(s.users.alice),
      actor: await repos.activityPub.remoteActorByHandle('@zoe@remote.test'),
      object: await repos.activityPub.objectIdOf('https://remote.test/notes/1'),
      follow: await repos.activityPub.follow(s.users.alice, 'https://remote.test/users/zoe'),
      scheme: await repos.activityPub.signatureScheme('remote.test'),
      peer: await repos.activityPub.isActivityPubPeer('remote.test'),
    },
    page: await repos.pages.localBySlug('about'),
  });
}
