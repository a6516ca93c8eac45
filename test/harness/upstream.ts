/**
 * A real HTTP server standing in for the domain services behind a gateway under test: it
 * records what reached it, answers with a programmable status, and serves a JWKS for a test
 * key pair so the gateway can verify tokens (a fake peer at the HTTP layer, as gotosocial's
 * testrig does).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface Upstream {
  url: string;
  requests: Recorded[];
  /** Status for the next requests (default 201 for POST, 200 otherwise). */
  status: number | undefined;
  sign(sub: string, opts?: { issuer?: string; expiresIn?: string | number }): Promise<string>;
  /** A token with exactly these claims (no `iat` or `exp` added), signed with the test key. */
  signClaims(claims: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

export async function startUpstream(domain: string): Promise<Upstream> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicJwk = {
    ...createPublicKey(privateKey).export({ format: 'jwk' }),
    kid: 'test-key',
    alg: 'RS256',
    use: 'sig',
  };
  const state: { requests: Recorded[]; status: number | undefined } = { requests: [], status: undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/.well-known/jwks.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
        return;
      }
      if (req.url === '/__routes') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ total: 1, routes: [{ methods: ['GET'], path: '/echo' }] }));
        return;
      }
      if (req.url === '/health') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ status: 'ok', services: { mongodb: 'connected' } }));
        return;
      }
      state.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      const status = state.status ?? (req.method === 'POST' ? 201 : 200);
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify(status >= 400 ? { error: 'upstream says no' } : { ok: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get requests() {
      return state.requests;
    },
    get status() {
      return state.status;
    },
    set status(v) {
      state.status = v;
    },
    sign: (sub, opts = {}) =>
      signWith(privateKey, sub, opts.issuer ?? `https://${domain}`, opts.expiresIn ?? '1h'),
    signClaims: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(privateKey),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function signWith(key: KeyObject, sub: string, issuer: string, exp: string | number): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
    .setIssuer(issuer)
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key);
}
