/**
 * Two (or more) Agora servers of the standalone wiring in this process, each with its own domain,
 * reaching each other by name through FEDERATION_HOST_MAP (test/e2e/two-servers-*.test.ts), and
 * the few calls every such test makes: send an activity, post, read a post in a lookup mode.
 */
import { ACTIVITIES, freePort, type ActivityRecord, type Stores } from '@agora/common/db';
import { createFederationContext } from '../../services/federation/src/context';
import { deliveryTargets } from '../../services/federation/src/delivery/audience';
import { outbox, registerActor, type Actor } from './actors';
import { json, startSigningPeer, type SigningPeer } from './fake-peer';
import { bootServer, client, waitFor, type TestServer } from './standalone';
import { allStored } from './stored';

export { freePort };

/** Peers by domain: a port on 127.0.0.1, or `host:port`. */
export type Peers = Record<string, number | string>;

export const hostMap = (peers: Peers): string =>
  Object.entries(peers)
    .map(([domain, at]) => `${domain}=${typeof at === 'number' ? `127.0.0.1:${at}` : at}`)
    .join(',');

/**
 * A server whose ids and links use its own domain over http, that reaches `peers` by name and
 * retries deliveries at once (delays scaled down); `env` adds or overrides.
 */
export function bootPeerServer(
  domain: string,
  port: number,
  peers: Peers,
  env: Record<string, string> = {},
): Promise<TestServer> {
  return bootServer({
    DOMAIN: domain,
    PUBLIC_URL: `http://${domain}`,
    PORT: String(port),
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_HOST_MAP: hostMap(peers),
    FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
    ...env,
  });
}

/** Two servers that know each other, on free ports. */
export async function bootPair(
  domainA: string,
  domainB: string,
  env: Record<string, string> = {},
): Promise<[TestServer, TestServer]> {
  const [portA, portB] = [await freePort(), await freePort()];
  return Promise.all([
    bootPeerServer(domainA, portA, { [domainB]: portB }, env),
    bootPeerServer(domainB, portB, { [domainA]: portA }, env),
  ]);
}

export const api = (s: TestServer) => client(s.url);

/** Servers A and B, and C (a signing fake peer both reach, that accepts every POST); four users. */
export interface Triangle {
  a: TestServer;
  b: TestServer;
  peerC: SigningPeer;
  /** alice and amy on A, bob and carol on B. */
  alice: Actor;
  amy: Actor;
  bob: Actor;
  carol: Actor;
  close(): Promise<void>;
}

/** A and B knowing each other and C, with polls off; alice and amy registered on A, bob and carol on B. */
export async function bootTriangle(domainA: string, domainB: string, domainC: string): Promise<Triangle> {
  const peerC = await startSigningPeer(domainC, (req, res) =>
    json(res, req.method === 'POST' ? 202 : 404, {}),
  );
  const [portA, portB] = [await freePort(), await freePort()];
  const noPolls = { FEDERATION_POLL_SECONDS: '0' };
  const [a, b] = await Promise.all([
    bootPeerServer(domainA, portA, { [domainB]: `127.0.0.1:${portB}`, [domainC]: peerC.address }, noPolls),
    bootPeerServer(domainB, portB, { [domainA]: `127.0.0.1:${portA}`, [domainC]: peerC.address }, noPolls),
  ]);
  const [alice, amy, bob, carol] = await Promise.all([
    registerActor(api(a), 'alice'),
    registerActor(api(a), 'amy'),
    registerActor(api(b), 'bob'),
    registerActor(api(b), 'carol'),
  ]);
  const close = async () => {
    await a.close();
    await b.close();
    await peerC.close();
  };
  return { a, b, peerC, alice, amy, bob, carol, close };
}
export const repos = (s: TestServer): Stores => s.services[0]!.runtime!.repos;

/** The federation service's context of a standalone (its planner, its stores). */
export function fed(s: TestServer) {
  const service = s.services.find((x) => x.name === 'federation');
  if (!service?.runtime) throw new Error('no federation service in the standalone wiring');
  return createFederationContext(service.runtime);
}

/** POST /outbox as `who`; anything but 201 fails the test, naming the activity. */
export async function send(s: TestServer, who: Actor, activity: Record<string, unknown>) {
  const res = await outbox(api(s), who, activity);
  if (res.status !== 201)
    throw new Error(`${String(activity.type)}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A post by `author` to `to` (an audience id, or '' for public); its id. */
export async function post(s: TestServer, author: Actor, to: string, content: string): Promise<string> {
  return (await send(s, author, { type: 'Create', objectType: 'Post', to, object: { content } })).createdId!;
}

/** GET /posts/:id on a server, for a user (or anonymous), in a lookup mode. */
export function read(s: TestServer, who: Actor | undefined, id: string, mode?: string) {
  const q = mode ? `?mode=${mode}` : '';
  return api(s).get<Record<string, unknown>>(
    `/posts/${encodeURIComponent(id)}${q}`,
    who ? { token: who.token } : {},
  );
}

/** Waits until `who` can read the post on `s`. */
export const readable = (s: TestServer, who: Actor, id: string, ms = 20_000) =>
  waitFor(async () => (await read(s, who, id)).status === 200, ms);

/** Every lookup mode answers 404 to this viewer (anonymous when `who` is undefined). */
export async function hiddenEverywhere(s: TestServer, who: Actor | undefined, id: string) {
  for (const mode of [undefined, 'local', 'remote', 'prefer-local', 'both'])
    expect([mode, (await read(s, who, id, mode)).status]).toEqual([mode, 404]);
}

/** The domains the origin's planner sends a post to. */
export async function plannedFor(s: TestServer, id: string): Promise<string[]> {
  const p = await repos(s).posts.byId(id);
  return (await deliveryTargets(fed(s), p!)).targets.map((t) => t.domain);
}

/** Every activity a server recorded (its activity log), as stored. */
export const activityLog = (s: TestServer): Promise<ActivityRecord[]> =>
  allStored<ActivityRecord & { _id: string }>(s.services[0]!.runtime!.db.engine, ACTIVITIES);

/** The inbound activities a server recorded that name this id. */
export async function inboundNaming(s: TestServer, id: string): Promise<ActivityRecord[]> {
  return (await activityLog(s)).filter((r) => r.inbound && String(r.raw).includes(id));
}
