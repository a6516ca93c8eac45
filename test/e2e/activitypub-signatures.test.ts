/**
 * Outbound HTTP signatures per peer (docs/federation.md, "ActivityPub"): draft-cavage first; a
 * peer that answers 401 with `Accept-Signature` gets the delivery again signed with RFC 9421, and
 * RFC 9421 from then on. The strict peer (`strict.test`, a fake peer with one actor, erin) checks
 * every signature it accepts against alice's own key, which it fetches from this server.
 */
import { memoryReplayGuard, verifyRequest } from '@agora/common/federation';
import { bootServer, client, waitFor, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { json, startPeer, type FakePeer, type Received } from '../harness/fake-peer';
import { mapHost, unmapHosts } from '../harness/fedify-peer';

const DOMAIN = 'social.test';
const STRICT = 'strict.test';
const ERIN = `http://${STRICT}/users/erin`;
let peer: FakePeer;
let server: TestServer;
let alice: Actor;
const replay = memoryReplayGuard();
/** Each POST to erin's inbox: the scheme it was signed with and whether it verified. */
const posts: Array<{ scheme: 'rfc9421' | 'draft-cavage'; verified: boolean; type: string }> = [];

const rt = () => server.services[0]!.runtime!;

async function verified(req: Received): Promise<boolean> {
  try {
    await verifyRequest({
      method: 'POST',
      path: req.url,
      url: `http://${STRICT}${req.url}`,
      headers: req.headers,
      rawBody: req.body,
      replay,
      resolveKey: async (keyId) => {
        const doc = (await (
          await fetch(keyId, { headers: { accept: 'application/activity+json' } })
        ).json()) as {
          publicKey: { publicKeyPem: string; owner: string };
        };
        return { publicKeyPem: doc.publicKey.publicKeyPem, ownerDomain: DOMAIN, owner: doc.publicKey.owner };
      },
    });
    return true;
  } catch {
    return false;
  }
}

function strict(req: Received, res: import('node:http').ServerResponse): void {
  const url = req.url.split('?')[0];
  if (req.method === 'GET' && url === '/.well-known/webfinger') {
    json(
      res,
      200,
      {
        subject: `acct:erin@${STRICT}`,
        links: [{ rel: 'self', type: 'application/activity+json', href: ERIN }],
      },
      'application/jrd+json',
    );
    return;
  }
  if (req.method === 'GET' && url === '/users/erin') {
    json(res, 200, {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: ERIN,
      type: 'Person',
      preferredUsername: 'erin',
      inbox: `${ERIN}/inbox`,
    });
    return;
  }
  if (req.method === 'POST' && url === '/users/erin/inbox') {
    const scheme = req.headers['signature-input'] ? 'rfc9421' : 'draft-cavage';
    const type = (JSON.parse(req.body.toString()) as { type: string }).type;
    void verified(req).then((ok) => {
      posts.push({ scheme, verified: ok, type });
      if (scheme === 'draft-cavage') {
        res
          .writeHead(401, {
            'accept-signature': 'sig1=("@method" "@target-uri" "content-digest");alg="rsa-v1_5-sha256"',
          })
          .end();
      } else res.writeHead(ok ? 202 : 401).end();
    });
    return;
  }
  json(res, 404, { error: 'Not found' });
}

beforeAll(async () => {
  peer = await startPeer(strict);
  server = await bootServer({
    DOMAIN,
    PUBLIC_URL: `http://${DOMAIN}`,
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_HOST_MAP: `${STRICT}=${peer.address}`,
    FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
  });
  mapHost(DOMAIN, Number(new URL(server.url).port));
  alice = await registerActor(client(server.url), 'alice');
});
afterAll(async () => {
  unmapHosts();
  await server?.close();
  await peer?.close();
});

test('a peer that asks for RFC 9421 gets it at once, and from then on', async () => {
  const api = client(server.url);
  expect((await outbox(api, alice, { type: 'Follow', object: `@erin@${STRICT}` })).status).toBe(201);
  await waitFor(() => Promise.resolve(posts.some((p) => p.scheme === 'rfc9421')), 20_000);
  // draft-cavage first (signed by alice's own key, verifiable), refused; then RFC 9421, accepted.
  expect(posts.slice(0, 2)).toEqual([
    { scheme: 'draft-cavage', verified: true, type: 'Follow' },
    { scheme: 'rfc9421', verified: true, type: 'Follow' },
  ]);
  expect(await rt().repos.activityPub.signatureScheme(STRICT)).toBe('rfc9421');

  expect((await outbox(api, alice, { type: 'Unfollow', object: `@erin@${STRICT}` })).status).toBe(201);
  await waitFor(() => Promise.resolve(posts.length >= 3), 20_000);
  expect(posts[2]).toEqual({ scheme: 'rfc9421', verified: true, type: 'Undo' });
});
