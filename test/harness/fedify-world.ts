/**
 * The ActivityPub interop tests' setting: a Fedify peer (fedify-peer.ts) and this server on
 * `domain`, each reaching the other on the loopback through the host map, delivery retries
 * quick, and a Fedify context to act as the peer's actors.
 */
import { createRequire } from 'node:module';
import type { Context } from '@fedify/fedify';
import { bootServer, client, type TestServer } from './standalone';
import { mapHost, startFedifyPeer, unmapHosts, type FedifyPeer } from './fedify-peer';

export interface FedifyWorld {
  peer: FedifyPeer;
  server: TestServer;
  api: ReturnType<typeof client>;
  fedCtx: Context<void>;
  close(): Promise<void>;
}

export async function startFedifyWorld(domain: string): Promise<FedifyWorld> {
  const peer = await startFedifyPeer();
  const server = await bootServer({
    DOMAIN: domain,
    PUBLIC_URL: `http://${domain}`,
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_HOST_MAP: `peer.test=${peer.address}`,
    FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
  });
  mapHost(domain, Number(new URL(server.url).port));
  return {
    peer,
    server,
    api: client(server.url),
    fedCtx: peer.federation.createContext(new URL(peer.origin), undefined),
    async close() {
      unmapHosts();
      await server.close();
      await peer.close();
    },
  };
}

/** jsonld.js (the JSON-LD processor Fedify itself uses): no type declarations of its own. */
const jsonld = createRequire(__filename)('jsonld') as {
  expand(doc: unknown, opts: { documentLoader: unknown; safe: boolean }): Promise<unknown[]>;
};

/**
 * A document expanded by a strict JSON-LD processor (jsonld.js in safe mode, with Fedify's
 * document loader): it throws when a term is not defined by the document's contexts, or when
 * anything else would be dropped, where a lenient reader silently loses it.
 */
export function expandStrictly(fedCtx: Context<void>, doc: unknown): Promise<unknown[]> {
  return jsonld.expand(doc, { documentLoader: fedCtx.documentLoader, safe: true });
}
