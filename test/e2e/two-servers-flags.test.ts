/**
 * Flag forwarding between two real servers, both ways (issue 23; docs/federation.md, "Flag
 * forwarding"): a user flags their server's copy of a remote post and asks for the report to be
 * forwarded; the post's server records a flag from the reporting server (not the reporter) in its
 * admins' queue. Without `forward` nothing goes. A forwarded Flag of something the reporting server
 * may not see is refused, recorded as such in the activity log, and makes no flag.
 */
import { randomUUID } from 'node:crypto';
import { signAsServer } from '@agora/common/federation';
import { createFederationContext } from '../../services/federation/src/context';
import { ADMIN, client, waitFor, type TestServer } from '../harness/standalone';
import { bootPair, repos } from '../harness/two-servers';
import { outbox, registerActor, type Actor } from '../harness/actors';

const A = 'flags-a.test';
const B = 'flags-b.test';
let a: TestServer;
let b: TestServer;
let alice: Actor; // on A
let bob: Actor; // on B
const admin: Record<string, string> = {};

interface FlagRow {
  id: string;
  target: string;
  targetType: string;
  actorId: string;
  server: string;
  reason: { code: string; label?: string; details?: string };
  notes?: string;
  status: string;
}

async function flagsOn(s: TestServer, domain: string): Promise<FlagRow[]> {
  const res = await client(s.url).get<{ orderedItems: FlagRow[] }>('/admin/flagged?limit=100', {
    token: admin[domain],
  });
  if (res.status !== 200) throw new Error(`flags on ${domain}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orderedItems;
}

/** `author` (on `origin`) posts publicly; `reader` (on `copyHolder`) follows them and holds the copy. */
async function copyOf(
  origin: TestServer,
  author: Actor,
  copyHolder: TestServer,
  text: string,
): Promise<string> {
  const res = await outbox(client(origin.url), author, {
    type: 'Create',
    objectType: 'Post',
    to: '@public',
    object: { content: text },
  });
  const id = res.body.createdId!;
  await waitFor(async () => (await repos(copyHolder).posts.remoteCopy(id)) !== null, 20_000);
  return id;
}

async function follow(who: Actor, on: TestServer, target: Actor, targetServer: TestServer) {
  const res = await outbox(client(on.url), who, { type: 'Follow', object: target.id });
  expect(res.status).toBe(201);
  await waitFor(() => repos(targetServer).followers.isFollower(target.id, who.id), 20_000);
}

beforeAll(async () => {
  [a, b] = await bootPair(A, B);
  alice = await registerActor(client(a.url), 'alice');
  bob = await registerActor(client(b.url), 'bob');
  for (const [s, d] of [
    [a, A],
    [b, B],
  ] as const)
    admin[d] = (await client(s.url).post<{ token: string }>('/auth/login', ADMIN)).body.token;
  await follow(bob, b, alice, a);
  await follow(alice, a, bob, b);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

test.each([
  [
    'B reports to A',
    () => ({ origin: a, originDomain: A, author: alice, holder: b, holderDomain: B, reporter: bob }),
  ],
  [
    'A reports to B',
    () => ({ origin: b, originDomain: B, author: bob, holder: a, holderDomain: A, reporter: alice }),
  ],
])(
  '%s: a forwarded flag reaches the post’s server as a flag from the reporting server',
  async (_n, setup) => {
    const { origin, originDomain, author, holder, holderDomain, reporter } = setup();
    const quiet = await copyOf(origin, author, holder, `not forwarded ${randomUUID()}`);
    const loud = await copyOf(origin, author, holder, `forwarded ${randomUUID()}`);
    const flag = (target: string, forward: boolean) =>
      outbox(client(holder.url), reporter, {
        type: 'Flag',
        target,
        object: { reason: 'spam', notes: 'selling watches' },
        forward,
      });
    expect((await flag(quiet, false)).status).toBe(201);
    const sent = await flag(loud, true);
    expect(sent.status).toBe(201);
    expect(sent.body.result).toMatchObject({
      target: loud,
      targetType: 'Post',
      actorId: reporter.id,
      forward: true,
    });

    await waitFor(async () => (await flagsOn(origin, originDomain)).some((f) => f.target === loud), 20_000);
    const theirs = await flagsOn(origin, originDomain);
    expect(theirs.find((f) => f.target === loud)).toMatchObject({
      targetType: 'Post',
      actorId: `@${holderDomain}`,
      server: `@${holderDomain}`,
      status: 'open',
      reason: { code: 'spam' },
      notes: 'selling watches',
    });
    expect(JSON.stringify(theirs.find((f) => f.target === loud))).not.toContain(reporter.id);
    // The unforwarded flag, planned before the forwarded one, never went.
    expect(theirs.some((f) => f.target === quiet)).toBe(false);
    // Both stay in the reporter's own server's queue.
    const ours = await flagsOn(holder, holderDomain);
    expect(ours.filter((f) => [quiet, loud].includes(f.target)).map((f) => f.actorId)).toEqual([
      reporter.id,
      reporter.id,
    ]);
  },
);

test('a forwarded flag of something the reporting server may not see is refused and recorded', async () => {
  const circle = await outbox(client(a.url), alice, {
    type: 'Create',
    objectType: 'Circle',
    to: alice.id,
    object: { name: 'Close friends' },
  });
  const hidden = await outbox(client(a.url), alice, {
    type: 'Create',
    objectType: 'Post',
    to: circle.body.createdId,
    object: { content: 'only for my circle' },
  });
  const target = hidden.body.createdId!;
  const activity = {
    id: `http://${B}/flags/${randomUUID()}#forward`,
    type: 'Flag',
    actorId: `@${B}`,
    actor: { id: `@${B}` },
    object: [target],
    reason: { code: 'spam' },
  };
  const body = JSON.stringify(activity);
  const fedB = createFederationContext(b.services.find((s) => s.name === 'federation')!.runtime!);
  const url = `${a.url}/inbox`;
  const signed = await signAsServer(fedB, { method: 'POST', url, body });
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...signed, 'content-type': 'application/activity+json' },
    body,
  });
  expect(res.status).toBe(202);
  const outcome = async () => {
    const log = await client(a.url).get<{
      orderedItems: Array<{ remoteId?: string; inbound?: { status: string } }>;
    }>('/admin/activities?type=Flag', { token: admin[A] });
    return log.body.orderedItems.find((x) => x.remoteId === activity.id)?.inbound?.status;
  };
  await waitFor(async () => (await outcome()) === 'rejected', 20_000);
  expect((await flagsOn(a, A)).some((f) => f.target === target)).toBe(false);
});

test('forward must be a boolean', async () => {
  const id = await copyOf(a, alice, b, `checked ${randomUUID()}`);
  const res = await outbox(client(b.url), bob, {
    type: 'Flag',
    target: id,
    object: { reason: 'spam' },
    forward: 'yes',
  });
  expect(res.status).toBe(400);
  expect((await flagsOn(b, B)).some((f) => f.target === id)).toBe(false);
});
