/**
 * Threads across servers (issue 23; docs/federation.md, "Threads"): two real Agora servers, A and
 * B (each a standalone server with its own database, the other reached by name through
 * FEDERATION_HOST_MAP), and C, a signing fake peer whose carol follows alice on A (so C holds
 * copies of alice's posts and receives what A relays). bob on B follows alice on A and alice
 * follows bob, so each server holds copies of the other's public posts.
 *
 * Replies and reactions, their edits and removals, travel both ways: made on the thread's server,
 * they reach every copy; made on a copy, they go to the thread's server, which checks them as a
 * local write, stores and counts them, notifies its user, and relays them (Announce) to the other
 * servers holding copies, never back to the author's own. What must not be stored is asserted on
 * the receiving server's stores and activity log, not on what it shows.
 *
 * This file: replies and reactions across the servers; two-servers-threads-refusals.test.ts has
 * what is refused (test/harness/threads.ts is the shared world).
 */
import { planDeliveries } from '../../services/federation/src/delivery/plan';
import type { TestServer } from '../harness/standalone';
import { repos } from '../harness/two-servers';
import type { Actor } from '../harness/actors';
import {
  A,
  B,
  bootThreads,
  closeThreads,
  copiedPost,
  counts,
  fedA,
  inboundAbout,
  listOf,
  notes,
  outcomeAbout,
  react,
  relaysToC,
  reply,
  replyEventsOnA,
  send,
  toC,
  until,
  type Json,
} from '../harness/threads';

let a: TestServer;
let b: TestServer;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  ({ a, b, alice, bob } = await bootThreads());
}, 60_000);
afterAll(closeThreads);

test("A → B: alice's reply on A reaches B's copy, threaded and counted there, and C's", async () => {
  const p = await copiedPost(a, alice, b, bob, 'thread on A');
  const r = await reply(a, alice, p, 'a first answer');
  await until(async () => (await listOf(b, bob, p, 'replies')).some((x) => x.id === r));
  expect((await listOf(b, bob, p, 'replies')).find((x) => x.id === r)).toMatchObject({
    actorId: alice.id,
    target: p,
    parent: p,
  });
  expect(await counts(b, bob, p)).toMatchObject({ replyCount: 1 });
  expect(await counts(a, alice, p)).toMatchObject({ replyCount: 1 });
  const stored = await repos(b).replies.byId(r);
  expect(stored).toMatchObject({ originDomain: A, server: `@${A}`, actorId: alice.id });
  expect(String(stored?.body)).toContain('a first answer');
  // C holds a copy too: it got alice's own Create, signed by A (not a relay).
  await until(() =>
    Promise.resolve(
      toC().some(({ activity }) => activity.type === 'Create' && (activity.object as Json).id === r),
    ),
  );
  const create = toC().find(({ activity }) => (activity.object as Json | undefined)?.id === r)!;
  expect(create.activity).toMatchObject({
    actorId: alice.id,
    object: { inReplyTo: p, target: p, attributedTo: alice.id },
  });
  expect(String(create.headers.signature)).toContain(`keyId="http://${A}/users/%40${A}#main-key"`);
});

test("bob replies from B's copy: A checks, stores, counts, notifies alice and relays to C, not back to B", async () => {
  const p = await copiedPost(a, alice, b, bob, 'answer me from B');
  const r = await reply(b, bob, p, 'hello from B');
  expect(r).toMatch(new RegExp(`^reply:[0-9a-f]{24}@${B}$`));
  expect(await counts(b, bob, p)).toMatchObject({ replyCount: 1 });
  expect((await listOf(b, bob, p, 'replies')).map((x) => x.id)).toEqual([r]);

  await until(async () => (await listOf(a, alice, p, 'replies')).some((x) => x.id === r));
  expect(await counts(a, alice, p)).toMatchObject({ replyCount: 1 });
  expect(await repos(a).replies.byId(r)).toMatchObject({
    actorId: bob.id,
    target: p,
    parent: p,
    originDomain: B,
  });
  expect(await outcomeAbout(a, r)).toEqual({ status: 'processed' });
  await until(async () =>
    (await notes(a, alice, 'reply')).some((n) => n.actorId === bob.id && n.objectId === p),
  );

  // The thread's server relays it to C, signed by A as its server actor, with bob's reply inside.
  await until(() => Promise.resolve(relaysToC('Create', r).length > 0));
  const [relay] = relaysToC('Create', r);
  expect(relay!.activity).toMatchObject({
    type: 'Announce',
    actorId: `@${A}`,
    object: { type: 'Create', actorId: bob.id, object: { id: r, inReplyTo: p, attributedTo: bob.id } },
  });
  // Not back to B, which has it: given the reply's real event, A's planner plans C only.
  await until(() => Promise.resolve(replyEventsOnA.some((m) => m.payload.replyId === r)));
  const event = replyEventsOnA.find((m) => m.payload.replyId === r)!;
  expect(await planDeliveries(fedA(), event)).toBe(1);
  expect(await inboundAbout(b, r)).toEqual([]);
});

test('nested replies thread the same on both sides', async () => {
  const p = await copiedPost(a, alice, b, bob, 'a thread to nest');
  const r1 = await reply(b, bob, p, 'first level, from B');
  await until(async () => !!(await repos(a).replies.liveById(r1)));
  // alice answers bob's reply through A's copy of it; bob answers her (a second level) from B.
  const r2 = await reply(a, alice, r1, 'second level, from A');
  await until(async () => !!(await repos(b).replies.liveById(r2)));
  const r3 = await reply(b, bob, r2, 'joins the first level');
  await until(async () => !!(await repos(a).replies.liveById(r3)));
  for (const s of [a, b]) {
    expect(await repos(s).replies.byId(r2)).toMatchObject({ target: p, parent: r1 });
    expect(await repos(s).replies.byId(r3)).toMatchObject({ target: p, parent: r1 });
  }
  await until(async () => (await repos(b).replies.byId(r1))?.replyCount === 2);
  await until(async () => (await repos(a).replies.byId(r1))?.replyCount === 2);
  expect(await counts(a, alice, p)).toMatchObject({ replyCount: 3 });
  expect(await counts(b, bob, p)).toMatchObject({ replyCount: 3 });
  expect((await listOf(b, bob, p, 'replies')).map((x) => x.id)).toEqual([r1, r2, r3]);
  expect((await listOf(a, alice, p, 'replies')).map((x) => x.id)).toEqual([r1, r2, r3]);
  // bob hears on B that alice answered his reply.
  await until(async () =>
    (await notes(b, bob, 'reply')).some((n) => n.actorId === alice.id && n.objectId === p),
  );
});

test("B → A: alice replies and reacts on A's copy of bob's post; B checks, counts and notifies bob", async () => {
  const q = await copiedPost(b, bob, a, alice, 'thread on B');
  const r = await reply(a, alice, q, 'hello from A');
  await until(async () => (await listOf(b, bob, q, 'replies')).some((x) => x.id === r));
  expect(await counts(b, bob, q)).toMatchObject({ replyCount: 1 });
  expect(await counts(a, alice, q)).toMatchObject({ replyCount: 1 });
  await until(async () =>
    (await notes(b, bob, 'reply')).some((n) => n.actorId === alice.id && n.objectId === q),
  );

  await react(a, alice, q, '🔥');
  await until(async () => (await counts(b, bob, q)).reactCount === 1);
  expect(await counts(b, bob, q)).toMatchObject({ reactSummary: { '🔥': 1 } });
  expect((await listOf(b, bob, q, 'reacts')).map((x) => [x.actorId, x.emoji])).toEqual([[alice.id, '🔥']]);
  await until(async () =>
    (await notes(b, bob, 'react')).some((n) => n.actorId === alice.id && n.objectId === q),
  );

  await send(a, alice, { type: 'Undo', object: { type: 'React', to: q } });
  await until(async () => (await counts(b, bob, q)).reactCount === 0);
  expect(await listOf(b, bob, q, 'reacts')).toEqual([]);
  expect(await counts(a, alice, q)).toMatchObject({ reactCount: 0 });
});

test("reactions: alice's reaches B's copy; bob's from B's copy is set, changed and removed on A and C", async () => {
  const p = await copiedPost(a, alice, b, bob, 'react to me');
  await react(a, alice, p, '👍');
  await until(async () => (await counts(b, bob, p)).reactCount === 1);
  expect(await counts(b, bob, p)).toMatchObject({ reactSummary: { '👍': 1 } });

  await react(b, bob, p, '🎉');
  expect(await counts(b, bob, p)).toMatchObject({ reactCount: 2, reactSummary: { '👍': 1, '🎉': 1 } });
  await until(async () => (await counts(a, alice, p)).reactCount === 2);
  expect(await counts(a, alice, p)).toMatchObject({ reactSummary: { '👍': 1, '🎉': 1 } });
  const mine = await repos(b).reacts.mine(bob.id, p);
  expect(await repos(a).reacts.mine(bob.id, p)).toMatchObject({ id: mine!.id, emoji: '🎉' });
  await until(async () =>
    (await notes(a, alice, 'react')).some((n) => n.actorId === bob.id && n.objectId === p),
  );
  await until(() => Promise.resolve(relaysToC('React', p).length > 0));

  await react(b, bob, p, '🔥');
  await until(async () => (await repos(a).reacts.mine(bob.id, p))?.emoji === '🔥');
  expect(await counts(a, alice, p)).toEqual({
    replyCount: 0,
    reactCount: 2,
    reactSummary: { '👍': 1, '🔥': 1 },
  });

  await send(b, bob, { type: 'Undo', object: { type: 'React', to: p } });
  await until(async () => (await counts(a, alice, p)).reactCount === 1);
  expect(await repos(a).reacts.mine(bob.id, p)).toBeNull();
  await until(() => Promise.resolve(relaysToC('Undo', p).length > 0));

  await send(a, alice, { type: 'Undo', object: { type: 'React', to: p } });
  await until(async () => (await counts(b, bob, p)).reactCount === 0);

  // A reply is reacted on the same way: bob on B's copy of alice's reply, counted on A's reply.
  const r = await reply(a, alice, p, 'react to my reply');
  await until(async () => !!(await repos(b).replies.liveById(r)));
  await react(b, bob, r, '👀');
  await until(async () => (await repos(a).replies.byId(r))?.reactCount === 1);
  expect(await repos(a).replies.byId(r)).toMatchObject({ reactSummary: { '👀': 1 } });
  await until(async () =>
    (await notes(a, alice, 'react')).some((n) => n.actorId === bob.id && n.objectId === r),
  );
});

test('reply edits and deletes travel by their authors, both ways', async () => {
  const p = await copiedPost(a, alice, b, bob, 'edits and deletes');
  const fromB = await reply(b, bob, p, 'first draft from B');
  const fromA = await reply(a, alice, p, 'first draft from A');
  await until(
    async () => !!(await repos(a).replies.liveById(fromB)) && !!(await repos(b).replies.liveById(fromA)),
  );

  await send(b, bob, { type: 'Update', target: fromB, object: { content: 'edited on B' } });
  await send(a, alice, { type: 'Update', target: fromA, object: { content: 'edited on A' } });
  await until(async () => String((await repos(a).replies.byId(fromB))?.body).includes('edited on B'));
  await until(async () => String((await repos(b).replies.byId(fromA))?.body).includes('edited on A'));
  await until(() => Promise.resolve(relaysToC('Update', fromB).length > 0));

  await send(b, bob, { type: 'Delete', target: fromB });
  await send(a, alice, { type: 'Delete', target: fromA });
  await until(async () => !!(await repos(a).replies.byId(fromB))?.deletedAt);
  await until(async () => !!(await repos(b).replies.byId(fromA))?.deletedAt);
  for (const [s, who] of [
    [a, alice],
    [b, bob],
  ] as const) {
    expect(await listOf(s, who, p, 'replies')).toEqual([]);
    expect(await counts(s, who, p)).toMatchObject({ replyCount: 0 });
  }
  await until(() => Promise.resolve(relaysToC('Delete', fromB).length > 0));
});
