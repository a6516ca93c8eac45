/**
 * Each local actor's own RSA key pair for ActivityPub (docs/federation.md, "ActivityPub"): made
 * on first need and kept through the ActivityPub store, so every replica signs with the same key.
 * The spec's own server-to-server protocol keeps signing with the server key (server-signer.ts).
 */
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { ActivityPubStore, ActorKeyRecord } from '../db';

const generate = promisify(generateKeyPair);

export async function actorKeyOf(
  store: Pick<ActivityPubStore, 'actorKey' | 'putActorKey'>,
  actorId: string,
): Promise<ActorKeyRecord> {
  const known = await store.actorKey(actorId);
  if (known) return known;
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return store.putActorKey({
    _id: actorId,
    publicKeyPem: publicKey,
    privateKeyPem: privateKey,
    createdAt: new Date(),
  });
}
