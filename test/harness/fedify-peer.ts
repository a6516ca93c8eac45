/**
 * An ActivityPub peer built with Fedify (an independent framework, `@fedify/fedify`), on a
 * loopback port, named `peer.test`: the server under test reaches it through FEDERATION_HOST_MAP;
 * Fedify reaches the server (and itself) through `global.fetch`, which this harness routes by
 * host name to loopback ports (keeping the `Host` a signature covers). Its actors (`carol`,
 * `dave`) have their own RSA keys; what reaches its inbox listeners has passed Fedify's own
 * signature and key-ownership checks.
 */
import { generateKeyPairSync, webcrypto, type KeyObject } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFederation, MemoryKvStore, type Federation, type InboxContext } from '@fedify/fedify';
import { Accept, Activity, Create, Endpoints, Follow, Note, Person, Undo } from '@fedify/fedify/vocab';
import { makeEd25519 } from './ed25519';

export const PEER_DOMAIN = 'peer.test';

export interface PeerKey {
  pem: { privateKey: string; publicKey: string };
  pair: { privateKey: webcrypto.CryptoKey; publicKey: webcrypto.CryptoKey };
}

export interface FedifyPeer {
  federation: Federation<void>;
  origin: string;
  address: string;
  /** Activities that passed Fedify's checks at an inbox, in arrival order. */
  inbox: Activity[];
  keys: Record<string, PeerKey>;
  /** Each actor's Ed25519 pair, when the peer was started with them (Object Integrity Proofs). */
  ed25519: Record<string, webcrypto.CryptoKeyPair>;
  /** Notes its server answers GET for (`/users/<name>/notes/<id>`), by URL. */
  notes: Map<string, Note>;
  /** Whether its actors answer a Follow with Accept (true) or leave it pending (false). */
  acceptFollows: boolean;
  /** Run on each Create that reached an inbox, after it is kept (a test forwards it, say). */
  onCreate?: ((ctx: InboxContext<void>, create: Create) => Promise<void>) | undefined;
  actorUrl(name: string): string;
  close(): Promise<void>;
}

async function makeKey(): Promise<PeerKey> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const der = (k: KeyObject, type: 'pkcs8' | 'spki') => k.export({ type, format: 'der' });
  const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const pair = {
    privateKey: await crypto.subtle.importKey('pkcs8', der(privateKey, 'pkcs8'), alg, true, ['sign']),
    publicKey: await crypto.subtle.importKey('spki', der(publicKey, 'spki'), alg, true, ['verify']),
  };
  return {
    pem: {
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
    pair,
  };
}

const realFetch = globalThis.fetch;
const hostMap = new Map<string, number>();

/** `fetch` for Fedify: mapped hosts go to their loopback port over http, with their own Host. */
async function mappedFetch(input: Request | string | URL, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init);
  const url = new URL(req.url);
  const port = hostMap.get(url.hostname);
  if (port === undefined) return realFetch(input, init);
  const body =
    req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.from(await req.arrayBuffer());
  const headers: Record<string, string> = { ...Object.fromEntries(req.headers), host: url.host };
  const res = await new Promise<Response>((resolve, reject) => {
    const r = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: `${url.pathname}${url.search}`, headers },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (c: Buffer) => chunks.push(c));
        incoming.on('end', () => {
          const status = incoming.statusCode ?? 502;
          const out = new Headers();
          for (const [k, v] of Object.entries(incoming.headers)) if (typeof v === 'string') out.set(k, v);
          const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(payload, { status, headers: out }));
        });
      },
    );
    r.on('error', reject);
    r.end(body);
  });
  Object.defineProperty(res, 'url', { value: url.href });
  return res;
}

/** Routes `domain` (any scheme) to a loopback port for Fedify's fetches. */
export function mapHost(domain: string, port: number): void {
  hostMap.set(domain, port);
  globalThis.fetch = mappedFetch;
}

export function unmapHosts(): void {
  hostMap.clear();
  globalThis.fetch = realFetch;
}

/**
 * A peer on `domain` (`peer.test` unless a test needs a second server). With `ed25519`, its
 * actors also have an Ed25519 key (their `assertionMethod`), so Fedify adds an Object Integrity
 * Proof to what they send, beside the Linked Data Signature.
 */
export async function startFedifyPeer(
  domain = PEER_DOMAIN,
  opts: { ed25519?: boolean } = {},
): Promise<FedifyPeer> {
  const inbox: Activity[] = [];
  const keys: Record<string, PeerKey> = { carol: await makeKey(), dave: await makeKey() };
  const ed25519: Record<string, webcrypto.CryptoKeyPair> = opts.ed25519
    ? {
        carol: await makeEd25519(),
        dave: await makeEd25519(),
      }
    : {};
  const settings: Pick<FedifyPeer, 'acceptFollows' | 'onCreate'> = { acceptFollows: true };
  const notes = new Map<string, Note>();
  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      if (!keys[identifier]) return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      const pair = pairs[0];
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: identifier === 'carol' ? 'Carol of the peer' : 'Dave',
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pair?.cryptographicKey,
        assertionMethods: pairs.slice(1).map((p) => p.multikey),
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => {
      const key = keys[identifier];
      const ed = ed25519[identifier];
      return key ? [key.pair, ...(ed ? [ed] : [])] : [];
    });
  federation.setObjectDispatcher(
    Note,
    '/users/{identifier}/notes/{id}',
    (ctx, values) => notes.get(`${ctx.origin}/users/${values.identifier}/notes/${values.id}`) ?? null,
  );
  federation
    .setInboxListeners('/users/{identifier}/inbox', '/inbox')
    .on(Follow, async (ctx, follow) => {
      inbox.push(follow);
      // Every follower is accepted, unless the test says otherwise.
      if (!settings.acceptFollows) return;
      const follower = await follow.getActor(ctx);
      if (!follower || !follow.objectId) return;
      const parsed = ctx.parseUri(follow.objectId);
      if (parsed?.type !== 'actor') return;
      await ctx.sendActivity(
        { identifier: parsed.identifier },
        follower,
        new Accept({
          id: new URL(`${follow.objectId.href}#accept-${inbox.length}`),
          actor: follow.objectId,
          object: follow,
        }),
      );
    })
    .on(Accept, (_ctx, a) => void inbox.push(a))
    .on(Create, async (ctx, a) => {
      inbox.push(a);
      await settings.onCreate?.(ctx, a);
    })
    .on(Undo, (_ctx, a) => void inbox.push(a))
    .on(Activity, (_ctx, a) => void inbox.push(a));

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = `http://${req.headers.host ?? domain}${req.url ?? '/'}`;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
      federation
        .fetch(new Request(url, { method: req.method, headers, body }), { contextData: undefined })
        .then(async (r) => {
          res.writeHead(r.status, Object.fromEntries(r.headers));
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  mapHost(domain, port);
  return {
    federation,
    get acceptFollows() {
      return settings.acceptFollows;
    },
    set acceptFollows(v: boolean) {
      settings.acceptFollows = v;
    },
    get onCreate() {
      return settings.onCreate;
    },
    set onCreate(f) {
      settings.onCreate = f;
    },
    origin: `http://${domain}`,
    address: `127.0.0.1:${port}`,
    inbox,
    keys,
    ed25519,
    notes,
    actorUrl: (name) => `http://${domain}/users/${name}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export { Create, Follow, Note };
