/**
 * A fake federation peer at the HTTP layer (as gotosocial's testrig): a real node:http server on a
 * loopback address that records every request and answers through a handler the test sets.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRequest } from '@agora/common/federation';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (req: Received, res: ServerResponse) => void;

export interface FakePeer {
  /** `host:port` to put in a hostMap. */
  address: string;
  port: number;
  received: Received[];
  handler: Handler;
  close(): Promise<void>;
}

export async function startPeer(handler: Handler, host = '127.0.0.1'): Promise<FakePeer> {
  const peer = { received: [] as Received[], handler };
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      peer.received.push(received);
      peer.handler(received, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(peer, {
    address: `${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

export function json(res: ServerResponse, status: number, doc: unknown, type = 'application/activity+json') {
  res.writeHead(status, { 'content-type': type }).end(JSON.stringify(doc));
}

export interface SigningPeer extends FakePeer {
  domain: string;
  keyId: string;
  privateKeyPem: string;
  /** What the server under test needs to reach this peer by its domain name. */
  serverEnv: Record<string, string>;
  /** Answers every request but GET /actor (settable by a test). */
  next: Handler;
  /**
   * POSTs an activity to `url` signed by this peer, each time with a later `Date` (the same bytes
   * signed in the same second make the same signature, which a receiver refuses as a replay).
   * `tamper` changes the bytes after signing; `unsigned` sends no signature.
   */
  send(
    url: string,
    activity: unknown,
    opts?: { tamper?: (body: string) => string; unsigned?: boolean },
  ): Promise<{ status: number; body: Record<string, unknown> }>;
}

/**
 * A fake peer server with its own RSA key: it publishes its actor document (and the key) at
 * `http://<domain>/actor`, so the server under test can verify what the peer signs with
 * `keyId`/`privateKeyPem`.
 */
export async function startSigningPeer(
  domain: string,
  next: Handler = (_req, res) => json(res, 404, { error: 'Not found' }),
): Promise<SigningPeer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const actor = `http://${domain}/actor`;
  const keyId = `${actor}#main-key`;
  const doc = {
    id: actor,
    type: 'Application',
    publicKey: {
      id: keyId,
      owner: actor,
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  };
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  let sent = 0;
  const peer = await startPeer(() => undefined);
  const signing: SigningPeer = Object.assign(peer, {
    domain,
    keyId,
    privateKeyPem,
    async send(
      url: string,
      activity: unknown,
      opts: { tamper?: (b: string) => string; unsigned?: boolean } = {},
    ) {
      const body = JSON.stringify(activity);
      const date = new Date(Date.now() + 1000 * sent++).toUTCString();
      const signed = signRequest({ method: 'POST', url, body, keyId, privateKeyPem, headers: { date } });
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/activity+json',
          accept: 'application/json',
          ...(opts.unsigned ? {} : { ...signed, date }),
        },
        body: opts.tamper ? opts.tamper(body) : body,
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
    },
    serverEnv: { FEDERATION_ALLOW_PRIVATE: 'true', FEDERATION_HOST_MAP: `${domain}=${peer.address}` },
    next,
  });
  peer.handler = (req, res) => (req.url === '/actor' ? json(res, 200, doc) : signing.next(req, res));
  return signing;
}

/**
 * Answers a peer's NodeInfo (`/.well-known/nodeinfo` and the document it links) as `software`
 * (`agora` for a compatible server); returns whether the request was one of those.
 */
export function serveNodeInfo(
  domain: string,
  req: Received,
  res: ServerResponse,
  software = 'agora',
  protocols = ['activitypub'],
): boolean {
  if (req.method !== 'GET') return false;
  if (req.url === '/.well-known/nodeinfo') {
    json(
      res,
      200,
      {
        links: [
          { rel: 'http://nodeinfo.diaspora.software/ns/schema/2.0', href: `http://${domain}/nodeinfo/2.0` },
        ],
      },
      'application/json',
    );
    return true;
  }
  if (req.url === '/nodeinfo/2.0') {
    json(
      res,
      200,
      { version: '2.0', software: { name: software, version: '9.9.9' }, protocols, metadata: {} },
      'application/json',
    );
    return true;
  }
  return false;
}
