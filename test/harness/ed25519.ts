/** Ed25519 key pairs for tests that sign as Fedify does (Multikeys, Object Integrity Proofs). */
import { generateKeyPairSync, type webcrypto } from 'node:crypto';

/** An Ed25519 pair as WebCrypto keys (Fedify's Multikey and Object Integrity Proofs). */
export async function makeEd25519(): Promise<webcrypto.CryptoKeyPair> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: await crypto.subtle.importKey(
      'pkcs8',
      privateKey.export({ type: 'pkcs8', format: 'der' }),
      { name: 'Ed25519' },
      true,
      ['sign'],
    ),
    publicKey: await crypto.subtle.importKey(
      'spki',
      publicKey.export({ type: 'spki', format: 'der' }),
      { name: 'Ed25519' },
      true,
      ['verify'],
    ),
  };
}
