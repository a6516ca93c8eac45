/**
 * The ActivityPub interop tests' setting: a Fedify peer (fedify-peer.ts) and this server on
 * `domain`, each reaching the other on the loopback through the host map, delivery retries
 * quick, and a Fedify context to act as the peer's actors; the public Note and its Create that
 * the interop tests send.
 */
import { createRequire } from 'node:module';
import type { Context } from '@fedify/fedify';
import { Create, Note, PUBLIC_COLLECTION } from '@fedify/fedify/vocab';
import { bootServer, client, type TestServer } from './standalone';
import { mapHost, startFedifyPeer, unmapHosts, type FedifyPeer } from './fedify-peer';

export interface FedifyWorld {
  peer: FedifyPeer;
  /** A second Fedify server, when asked for (`other`): its own domain, actors and keys. */
  other?: FedifyPeer;
  server: TestServer;
  api: ReturnType<typeof client>;
  fedCtx: Context<void>;
  close(): Promise<void>;
}

/** With `other`, a second Fedify server on that domain (its actors with Ed25519 keys too when `otherEd25519`). */
export async function startFedifyWorld(
  domain: string,
  opts: { other?: string; otherEd25519?: boolean } = {},
): Promise<FedifyWorld> {
  const peer = await startFedifyPeer();
  const other = opts.other ? await startFedifyPeer(opts.other, { ed25519: !!opts.otherEd25519 }) : undefined;
  const server = await bootServer({
    DOMAIN: domain,
    PUBLIC_URL: `http://${domain}`,
    FEDERATION_ALLOW_PRIVATE: 'true',
    FEDERATION_HOST_MAP: [
      `peer.test=${peer.address}`,
      ...(other ? [`${opts.other}=${other.address}`] : []),
    ].join(','),
    FEDERATION_DELIVERY_DELAY_SCALE: '0.001',
  });
  mapHost(domain, Number(new URL(server.url).port));
  return {
    peer,
    ...(other ? { other } : {}),
    server,
    api: client(server.url),
    fedCtx: peer.federation.createContext(new URL(peer.origin), undefined),
    async close() {
      unmapHosts();
      await server.close();
      await peer.close();
      await other?.close();
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

type NoteValues = ConstructorParameters<typeof Note>[0];
type CreateValues = ConstructorParameters<typeof Create>[0];

/** A public Note at `url` by the actor at `author` (to Public), with `extra` values over those. */
export function publicNote(
  author: string,
  url: string,
  content: string,
  extra: Partial<NoteValues> = {},
): Note {
  return new Note({
    id: new URL(url),
    attribution: new URL(author),
    content,
    to: PUBLIC_COLLECTION,
    ...extra,
  });
}

/** The Create of a Note by its author (`<note>#create`, to Public), with `extra` values over those. */
export function createOf(note: Note, extra: Partial<CreateValues> = {}): Create {
  if (!note.id || !note.attributionId) throw new Error('createOf: the Note needs an id and an author');
  return new Create({
    id: new URL(`${note.id.href}#create`),
    actor: note.attributionId,
    to: PUBLIC_COLLECTION,
    object: note,
    ...extra,
  });
}
