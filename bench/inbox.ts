/**
 * POST /inbox under load (quality bar: 202 within 100 ms p95): a fake peer publishes its key,
 * and every request is a distinct activity signed afresh, so each one is verified, recorded
 * and enqueued (no duplicate or replay short-cuts).
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { signRequest } from '@agora/common/federation';

export const PEER = 'bench-peer.test';
const KEY_ID = `http://${PEER}/actor#main-key`;
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const privateKeyPem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** The peer's actor document, on a loopback port the server reaches through FEDERATION_HOST_MAP. */
export async function startBenchPeer(): Promise<{ address: string; close: () => void }> {
  const doc = JSON.stringify({
    id: `http://${PEER}/actor`,
    type: 'Application',
    publicKey: {
      id: KEY_ID,
      owner: `http://${PEER}/actor`,
      publicKeyPem: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    },
  });
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/activity+json' }).end(doc);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

export async function benchInbox(gateway: string, seconds: number, connections: number) {
  let n = 0;
  const run = Date.now().toString(36);
  const r = await autocannon({
    url: gateway,
    connections,
    duration: seconds,
    timeout: 60,
    requests: [
      {
        method: 'POST',
        path: '/inbox',
        setupRequest: (req) => {
          const i = n++;
          const body = JSON.stringify({
            id: `http://${PEER}/activities/${run}-${i}`,
            type: 'Like',
            actorId: `@someone@${PEER}`,
            object: `http://${PEER}/posts/${i}`,
          });
          const headers = signRequest({
            method: 'POST',
            url: `${gateway}/inbox`,
            body,
            keyId: KEY_ID,
            privateKeyPem,
          });
          return {
            ...req,
            body,
            headers: { ...headers, 'content-type': 'application/activity+json', accept: 'application/json' },
          };
        },
      },
    ],
  });
  const lat = r.latency as unknown as Record<string, number>;
  return {
    rps: r.requests.average,
    p50: lat.p50 ?? r.latency.median,
    p97: lat.p97_5 ?? 0,
    bad: r.errors + r.non2xx,
  };
}
