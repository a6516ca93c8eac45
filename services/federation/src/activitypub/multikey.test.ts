/**
 * Multikeys (FEP-521a) found for a proof's `verificationMethod`: only on the actor's domain (not
 * fetched otherwise), and only a key its controller lists in its `assertionMethod`. The documents
 * are served by a map of this test (the fetch through the safe client is the inbox's own).
 */
import { generateKeyPairSync } from 'node:crypto';
import { Multikey } from '@fedify/fedify/vocab';
import { Unauthorized } from '@agora/common/errors';
import { fetchMultikey } from './multikey';
import type { Json } from './json';

const ACTOR = 'https://a.example/users/dave';
const KEY_ID = `${ACTOR}#ed25519-key`;
const STANDALONE = 'https://a.example/keys/1';
let multibase: string;
const served = new Map<string, Json>();
const fetched: string[] = [];
const fetchDoc = (url: string) => {
  fetched.push(url);
  return Promise.resolve(served.get(url));
};

beforeAll(async () => {
  const { publicKey } = generateKeyPairSync('ed25519');
  const cryptoKey = await crypto.subtle.importKey(
    'spki',
    publicKey.export({ type: 'spki', format: 'der' }),
    { name: 'Ed25519' },
    true,
    ['verify'],
  );
  const json = (await new Multikey({
    id: new URL(KEY_ID),
    controller: new URL(ACTOR),
    publicKey: cryptoKey,
  }).toJsonLd({ format: 'compact' })) as { publicKeyMultibase: string };
  multibase = json.publicKeyMultibase;
});
beforeEach(() => {
  served.clear();
  fetched.length = 0;
});

const keyDoc = (id: string) => ({ id, type: 'Multikey', controller: ACTOR, publicKeyMultibase: multibase });
const actorDoc = (assertionMethod: unknown[]) => ({ id: ACTOR, type: 'Person', assertionMethod });

test("a key in the actor's assertionMethod is found, with its controller", async () => {
  served.set(ACTOR, actorDoc([keyDoc(KEY_ID)]));
  await expect(fetchMultikey(fetchDoc, KEY_ID, ACTOR)).resolves.toMatchObject({ controller: ACTOR });
});

test("a key on another domain than the actor's is refused before it is fetched", async () => {
  const elsewhere = 'https://evil.example/keys/1';
  served.set(elsewhere, { ...keyDoc(elsewhere), controller: 'https://evil.example/users/x' });
  await expect(fetchMultikey(fetchDoc, elsewhere, ACTOR)).rejects.toThrow(
    "The proof key is not on the activity's actor's domain",
  );
  expect(fetched).toEqual([]);
});

test('a standalone key document counts only when its controller lists it in assertionMethod', async () => {
  served.set(STANDALONE, keyDoc(STANDALONE));
  served.set(ACTOR, actorDoc([]));
  await expect(fetchMultikey(fetchDoc, STANDALONE, ACTOR)).rejects.toThrow(
    new Unauthorized("The proof key is not in its controller's assertionMethod"),
  );
  expect(fetched).toEqual([STANDALONE, ACTOR]);
  served.set(ACTOR, actorDoc([STANDALONE]));
  await expect(fetchMultikey(fetchDoc, STANDALONE, ACTOR)).resolves.toMatchObject({ controller: ACTOR });
});
