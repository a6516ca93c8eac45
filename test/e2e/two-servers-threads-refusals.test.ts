/**
 * Threads across servers, what is refused (issue 23; docs/federation.md, "Threads"): replies and
 * reactions a post does not admit, a Reject or a reply from a server that does not own the
 * thread, a reply to a post the replier may not see, the same reply twice. The world (servers A
 * and B, the signing fake peer C) is test/harness/threads.ts; two-servers-threads.test.ts has
 * the replies and reactions that travel.
 */
import { randomUUID } from 'node:crypto';
import { planDeliveries } from '../../services/federation/src/delivery/plan';
import type { TestServer } from '../harness/standalone';
import { repos } from '../harness/two-servers';
import type { Actor } from '../harness/actors';
import type { SigningPeer } from '../harness/fake-peer';
import {
  A,
  C,
  CAROL,
  arrived,
  bootThreads,
  closeThreads,
  copiedPost,
  counts,
  fedA,
  inboundAbout,
  listOf,
  outcomeAbout,
  post,
  react,
  reply,
  replyEventsOnA,
  send,
  until,
} from '../harness/threads';

let a: TestServer;
let b: TestServer;
let peerC: SigningPeer;
let alice: Actor;
let bob: Actor;

beforeAll(async () => {
  ({ a, b, peerC, alice, bob } = await bootThreads());
}, 60_000);
afterAll(closeThreads);

describe('refusals', () => {
  test("a reply or reaction from B's copy that the post does not admit is refused by A, then withdrawn on B", async () => {
    const circle = (
      await send(a, alice, {
        type: 'Create',
        objectType: 'Circle',
        to: alice.id,
        object: { name: 'Repliers' },
      })
    ).createdId!;
    const p = await post(a, alice, `only my circle may answer ${randomUUID()}`, {
      canReply: circle,
      canReact: circle,
    });
    await arrived(b, bob, p);
    // B cannot know alice's circles: its copy lets bob try, and A, the thread's server, decides.
    const r = await reply(b, bob, p, 'may I?');
    // Its id from the answer: A's Reject may withdraw it on B before a read here.
    const reaction = (await react(b, bob, p, '🙋')).createdId!;
    expect(await outcomeAbout(a, r)).toEqual({
      status: 'rejected',
      reason: 'canReply: the post does not admit the author',
    });
    expect(await outcomeAbout(a, reaction)).toEqual({
      status: 'rejected',
      reason: 'canReact: the post does not admit the author',
    });
    expect(await repos(a).replies.byId(r)).toBeNull();
    expect(await repos(a).reacts.byId(reaction)).toBeNull();
    expect(await counts(a, alice, p)).toEqual({ replyCount: 0, reactCount: 0, reactSummary: {} });
    expect(await listOf(a, alice, p, 'replies')).toEqual([]);
    // A tells B (Reject), which withdraws what it stored: the thread reads the same on both.
    await until(async () => !!(await repos(b).replies.byId(r))?.deletedAt);
    await until(async () => (await repos(b).reacts.byId(reaction)) === null);
    expect(await counts(b, bob, p)).toEqual({ replyCount: 0, reactCount: 0, reactSummary: {} });
    expect(await listOf(b, bob, p, 'replies')).toEqual([]);
    expect(await outcomeAbout(b, r)).toEqual({ status: 'processed' });
  });

  test("a Reject is heard only from the thread's server, about this server's users", async () => {
    const p = await copiedPost(a, alice, b, bob, 'C tries to refuse');
    const r = await reply(b, bob, p, 'stays');
    await until(async () => !!(await repos(a).replies.liveById(r)));
    const reject = { id: `http://${C}/activities/reject-1`, type: 'Reject', actorId: `@${C}`, object: r };
    expect((await peerC.send(`${b.url}/inbox`, reject)).status).toBe(202);
    expect(await outcomeAbout(b, r)).toEqual({
      status: 'rejected',
      reason: 'only the server that owns the thread may refuse what is said in it',
    });
    expect(await repos(b).replies.liveById(r)).not.toBeNull();
    expect(await counts(b, bob, p)).toMatchObject({ replyCount: 1 });
  });

  test('a reply to a post the replier may not see, or that does not exist, is refused: nothing stored', async () => {
    const circle = (
      await send(a, alice, { type: 'Create', objectType: 'Circle', to: alice.id, object: { name: 'Inner' } })
    ).createdId!;
    const hidden = (
      await send(a, alice, { type: 'Create', objectType: 'Post', to: circle, object: { content: 'inner' } })
    ).createdId!;
    const create = (n: string, inReplyTo: string) => ({
      id: `http://${C}/activities/${n}`,
      type: 'Create',
      actorId: CAROL,
      actor: { id: CAROL, name: 'Carol' },
      object: { id: `reply:${n}@${C}`, type: 'Note', attributedTo: CAROL, inReplyTo, content: '<p>peek</p>' },
    });
    expect((await peerC.send(`${a.url}/inbox`, create('hidden-1', hidden))).status).toBe(202);
    expect(await outcomeAbout(a, `reply:hidden-1@${C}`)).toEqual({
      status: 'rejected',
      reason: 'the author may not see what they answer',
    });
    expect(await repos(a).replies.byId(`reply:hidden-1@${C}`)).toBeNull();
    expect(await repos(a).posts.byId(hidden)).toMatchObject({ replyCount: 0 });

    const missing = `post:${'0'.repeat(24)}@${A}`;
    expect((await peerC.send(`${a.url}/inbox`, create('missing-1', missing))).status).toBe(202);
    expect(await outcomeAbout(a, `reply:missing-1@${C}`)).toEqual({
      status: 'ignored',
      reason: 'no post or reply with that id is held here',
    });
    expect(await repos(a).replies.byId(`reply:missing-1@${C}`)).toBeNull();
  });

  test("only the thread's server is heard about its thread: C's reply or relay into A's thread is refused by B", async () => {
    const p = await copiedPost(a, alice, b, bob, 'a thread C tries to write into');
    const note = (n: string) => ({
      id: `reply:${n}@${C}`,
      type: 'Note',
      attributedTo: CAROL,
      inReplyTo: p,
      content: '<p>straight to B</p>',
    });
    const direct = {
      id: `http://${C}/activities/direct-1`,
      type: 'Create',
      actorId: CAROL,
      object: note('direct-1'),
    };
    const relay = {
      id: `http://${C}/activities/relay-1`,
      type: 'Announce',
      actorId: `@${C}`,
      object: { type: 'Create', actorId: CAROL, object: note('relay-1') },
    };
    expect((await peerC.send(`${b.url}/inbox`, direct)).status).toBe(202);
    expect((await peerC.send(`${b.url}/inbox`, relay)).status).toBe(202);
    const refused = {
      status: 'rejected',
      reason: `only ${A}, which owns the thread, may tell this server about it`,
    };
    expect(await outcomeAbout(b, `reply:direct-1@${C}`)).toEqual(refused);
    expect(await outcomeAbout(b, `reply:relay-1@${C}`)).toEqual(refused);
    expect(await repos(b).replies.byId(`reply:direct-1@${C}`)).toBeNull();
    expect(await repos(b).replies.byId(`reply:relay-1@${C}`)).toBeNull();
    expect(await counts(b, bob, p)).toMatchObject({ replyCount: 0 });
    // And C cannot speak for B's users at all: the signature is refused at the door.
    const forged = { ...direct, id: `http://${C}/activities/forged-1`, actorId: bob.id };
    expect((await peerC.send(`${a.url}/inbox`, forged)).status).toBe(401);
  });

  test('a reply is applied once: the same activity again, or another activity with its id', async () => {
    const p = await copiedPost(a, alice, b, bob, 'said twice');
    const create = (n: string) => ({
      id: `http://${C}/activities/${n}`,
      type: 'Create',
      actorId: CAROL,
      object: {
        id: `reply:twice@${C}`,
        type: 'Note',
        attributedTo: CAROL,
        inReplyTo: p,
        content: '<p>twice</p>',
      },
    });
    expect((await peerC.send(`${a.url}/inbox`, create('twice-1'))).status).toBe(202);
    expect(await peerC.send(`${a.url}/inbox`, create('twice-1'))).toEqual({
      status: 202,
      body: { accepted: true, duplicate: true },
    });
    expect((await peerC.send(`${a.url}/inbox`, create('twice-2'))).status).toBe(202);
    await until(async () =>
      (await inboundAbout(a, `reply:twice@${C}`)).every((d) => d.inbound?.status !== 'accepted'),
    );
    const outcomes = (await inboundAbout(a, `reply:twice@${C}`)).map((d) => [d.remoteId, d.inbound?.status]);
    expect(outcomes.sort()).toEqual([
      [`http://${C}/activities/twice-1`, 'processed'],
      [`http://${C}/activities/twice-2`, 'ignored'],
    ]);
    expect(await counts(a, alice, p)).toMatchObject({ replyCount: 1 });
    // A relays carol's reply to B, which holds a copy of the post (C is its author's own server).
    await until(async () => !!(await repos(b).replies.liveById(`reply:twice@${C}`)));
    expect(await counts(b, bob, p)).toMatchObject({ replyCount: 1 });
    // Not back to C, its author's server: given the reply's real event, A's planner plans B only.
    await until(() => Promise.resolve(replyEventsOnA.some((m) => m.payload.replyId === `reply:twice@${C}`)));
    const event = replyEventsOnA.find((m) => m.payload.replyId === `reply:twice@${C}`)!;
    expect(await planDeliveries(fedA(), event)).toBe(1);
  });
});
