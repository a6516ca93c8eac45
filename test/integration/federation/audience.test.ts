/**
 * Who receives what (services/federation/src/delivery/audience.ts and the post planner of
 * audience-plan.ts) on a real database: one delivery per server naming its recipients, a server
 * member named as itself, nothing for audiences no other server may read, and an audience change
 * that withdraws the post from servers the new audience leaves out. Expectations written out.
 */
import { loadConfig } from '@agora/common/config';
import { mintId } from '@agora/common/db';
import type { EventMessage } from '@agora/common/messaging';
import type { FederationContext } from '../../../services/federation/src/context';
import { actorPeers, deliveryTargets } from '../../../services/federation/src/delivery/audience';
import { planPost } from '../../../services/federation/src/delivery/audience-plan';
import { useTestDatabase } from '../../harness/database';

const A = 'a.test';
const ALICE = `@alice@${A}`;
const t = useTestDatabase('fed-audience', A);
let ctx: FederationContext;

const inboxOf = (domain: string) => `https://${domain}/inbox`;

beforeAll(() => {
  const config = loadConfig({}, { NODE_ENV: 'test', DOMAIN: A, LOG_LEVEL: 'silent' });
  ctx = { config, stores: t.repos } as unknown as FederationContext;
});

async function circle(members: string[], actorId = ALICE) {
  return t.repos.circles.create({ name: 'Friends', actorId, members: members.map((id) => ({ id })) });
}

async function post(to: string) {
  const id = mintId('post', A);
  await t.repos.posts.createLocal(
    { id, actorId: ALICE, type: 'Note', to, body: '<p>hi</p>', publishedAt: new Date() },
    { circles: [] },
  );
  return id;
}

function event<N extends 'post.created' | 'post.updated'>(
  name: N,
  payload: EventMessage<N>['payload'],
): EventMessage<N> {
  return {
    id: mintId('activity', A),
    name,
    payload,
    headers: {},
    attempt: 1,
    publishedAt: new Date().toISOString(),
  };
}

test('a circle post goes once to each server of its remote members, naming them', async () => {
  const c = await circle(['@bob@b.test', '@carol@b.test', '@c.test', `@lou@${A}`, `@${A}`, '@dave@d.test']);
  const audience = await deliveryTargets(ctx, { actorId: ALICE, to: c.id });
  expect(audience.circle).toEqual({ id: c.id, actorId: ALICE, name: 'Friends', rev: 0 });
  expect(audience.targets).toEqual([
    { domain: 'b.test', inbox: inboxOf('b.test'), recipients: ['@bob@b.test', '@carol@b.test'] },
    { domain: 'c.test', inbox: inboxOf('c.test'), recipients: ['@c.test'] },
    { domain: 'd.test', inbox: inboxOf('d.test'), recipients: ['@dave@d.test'] },
  ]);
  // Each change of members moves the revision receivers order by.
  await t.repos.circles.removeMember(c.id, '@dave@d.test');
  const after = await deliveryTargets(ctx, { actorId: ALICE, to: c.id });
  expect(after.circle?.rev).toBe(1);
  expect(after.targets.map((x) => x.domain)).toEqual(['b.test', 'c.test']);
});

test('a public post goes to the followers, one delivery per inbox; circle members who do not follow get none', async () => {
  const author = `@pat@${A}`;
  await circle(['@zed@z.test'], author);
  await t.repos.followers.add(author, '@bob@b.test', { domain: 'b.test', inbox: inboxOf('b.test') });
  await t.repos.followers.add(author, '@carol@b.test', { domain: 'b.test', inbox: inboxOf('b.test') });
  await t.repos.followers.add(author, 'https://m.test/users/x', {
    domain: 'm.test',
    inbox: 'https://m.test/users/x/inbox',
  });
  expect((await deliveryTargets(ctx, { actorId: author, to: '@public' })).targets).toEqual([
    { domain: 'b.test', inbox: inboxOf('b.test'), recipients: ['@bob@b.test', '@carol@b.test'] },
    { domain: 'm.test', inbox: 'https://m.test/users/x/inbox', recipients: ['https://m.test/users/x'] },
  ]);
});

test('audiences no other server may read go nowhere', async () => {
  const local = await circle([`@lou@${A}`]);
  const deleted = await circle(['@bob@b.test']);
  await t.repos.circles.softDeleteCircle(deleted.id, ALICE);
  const cached = 'circle:0000000000000000000000aa@b.test';
  await t.repos.circles.syncCached(
    { id: cached, actorId: '@bob@b.test', name: 'Theirs', originDomain: 'b.test' },
    { rev: 1, present: [ALICE], scope: 'all' },
  );
  for (const to of [
    `@${A}`,
    '@server',
    ALICE,
    '',
    local.id,
    deleted.id,
    cached,
    'group:000000000000000000000001@a.test',
  ])
    expect((await deliveryTargets(ctx, { actorId: ALICE, to })).targets).toEqual([]);
});

test("an actor's peers: followers, its circles' member servers, and servers whose circles hold it", async () => {
  const author = `@amy@${A}`;
  await t.repos.followers.add(author, '@bob@b.test', { domain: 'b.test', inbox: inboxOf('b.test') });
  const own = await circle(['@carol@b.test', '@c.test'], author);
  const gone = await circle(['@dave@d.test'], author);
  await t.repos.circles.softDeleteCircle(gone.id, author);
  await t.repos.circles.syncCached(
    {
      id: 'circle:0000000000000000000000bb@e.test',
      actorId: '@eve@e.test',
      name: 'E',
      originDomain: 'e.test',
    },
    { rev: 1, present: [author], scope: 'all' },
  );
  const domains = async (deleted: boolean) =>
    (await actorPeers(ctx, author, { deleted })).map((p) => [p.domain, p.inbox]).sort();
  expect(await domains(false)).toEqual([
    ['b.test', inboxOf('b.test')],
    ['c.test', inboxOf('c.test')],
    ['e.test', inboxOf('e.test')],
  ]);
  await t.repos.circles.softDeleteCircle(own.id, author);
  expect(await domains(true)).toEqual([
    ['b.test', inboxOf('b.test')],
    ['c.test', inboxOf('c.test')],
    ['d.test', inboxOf('d.test')],
    ['e.test', inboxOf('e.test')],
  ]);
});

test('moving a post from one circle to another: Update to the new servers, Delete to those left out', async () => {
  const x = await circle(['@bob@b.test', '@carol@c.test']);
  const y = await circle(['@carol@c.test', '@dave@d.test']);
  const id = await post(x.id);
  const created = await planPost(
    ctx,
    event('post.created', { postId: id, actorId: ALICE, to: x.id, type: 'Note' }),
  );
  expect(created.map((p) => [p.domain, p.activity.type, p.activity.recipients])).toEqual([
    ['b.test', 'Create', ['@bob@b.test']],
    ['c.test', 'Create', ['@carol@c.test']],
  ]);
  expect(created[0]!.activity).toMatchObject({
    to: [x.id],
    circle: { id: x.id, actorId: ALICE, name: 'Friends' },
    object: { id, to: [x.id] },
  });

  await t.repos.posts.update(id, { to: y.id });
  const moved = await planPost(
    ctx,
    event('post.updated', {
      objectId: id,
      objectType: 'Post',
      actorId: ALICE,
      ownerId: ALICE,
      fields: ['to'],
      previousTo: x.id,
    }),
  );
  expect(moved.map((p) => [p.domain, p.activity.type, p.activity.to])).toEqual([
    ['c.test', 'Update', [y.id]],
    ['d.test', 'Update', [y.id]],
    ['b.test', 'Delete', [x.id]],
  ]);
  // An edit of the content only: Update to the servers of its audience.
  const edited = await planPost(
    ctx,
    event('post.updated', {
      objectId: id,
      objectType: 'Post',
      actorId: ALICE,
      ownerId: ALICE,
      fields: ['body'],
    }),
  );
  expect(edited.map((p) => [p.domain, p.activity.type])).toEqual([
    ['c.test', 'Update'],
    ['d.test', 'Update'],
  ]);
});
