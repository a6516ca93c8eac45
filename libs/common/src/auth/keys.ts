/** The server key pair: RSA-2048, PEM (SPKI public, PKCS8 private), with a stable key id. */
import { createHash, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

const gen = promisify(generateKeyPair);

export interface ServerKeyPair {
  publicKey: string;
  privateKey: string;
}

export async function generateServerKeyPair(): Promise<ServerKeyPair> {
  const { publicKey, privateKey } = await gen('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey, privateKey };
}

/** Key id: a hash of the public key, so a rotated key gets a new kid. */
export function keyIdOf(publicKeyPem: string): string {
  return createHash('sha256').update(publicKeyPem.trim()).digest('base64url').slice(0, 16);
}

/** Where verifiers and issuers get the current keys (settings in the database, cached). */
export interface KeySource {
  publicKey(): Promise<string | undefined>;
  privateKey(): Promise<string | undefined>;
  /** Drop any cache (called when a token's kid is unknown, in case the key was rotated). */
  refresh(): void;
}
