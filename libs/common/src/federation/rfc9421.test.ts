import { generateKeyPairSync } from 'node:crypto';
import { memoryReplayGuard } from './replay';
import { parseSignatureInput, signRfc9421 } from './rfc9421';
import { verifyRequest } from './signature';

const key = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: typeof key) => ({
  privateKeyPem: k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  publicKeyPem: k.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
});
const url = 'https://social.test/users/alice/inbox';
const keyId = 'https://peer.test/users/carol#main-key';
const body = '{"type":"Create"}';

function verify(headers: Record<string, string>, sent = body) {
  return verifyRequest({
    method: 'POST',
    path: '/users/alice/inbox',
    url,
    headers: { host: 'social.test', ...headers },
    rawBody: Buffer.from(sent),
    replay: memoryReplayGuard(),
    resolveKey: () =>
      Promise.resolve({
        publicKeyPem: pem(key).publicKeyPem,
        ownerDomain: 'peer.test',
        owner: 'https://peer.test/users/carol',
      }),
  });
}

describe('RFC 9421 HTTP Message Signatures', () => {
  test('a signature made here verifies, naming its key owner and the scheme', async () => {
    const headers = signRfc9421({ method: 'POST', url, body, keyId, privateKeyPem: pem(key).privateKeyPem });
    await expect(verify(headers)).resolves.toMatchObject({
      keyId,
      signerDomain: 'peer.test',
      owner: 'https://peer.test/users/carol',
      scheme: 'rfc9421',
    });
  });

  test("Fedify's Signature-Input form parses (labels, components, parameters as sent)", () => {
    const [input] = parseSignatureInput(
      'sig1=("@method" "@target-uri" "@authority" "host" "date" "content-digest");alg="rsa-v1_5-sha256";keyid="https://peer.test/users/carol#main-key";created=1700000000',
    );
    expect(input).toMatchObject({
      label: 'sig1',
      components: ['@method', '@target-uri', '@authority', 'host', 'date', 'content-digest'],
      keyId,
      created: 1700000000,
      parameters: 'alg="rsa-v1_5-sha256";keyid="https://peer.test/users/carol#main-key";created=1700000000',
    });
  });

  test('another key, a changed body, an old signature or a missing digest: 401', async () => {
    const wrong = signRfc9421({ method: 'POST', url, body, keyId, privateKeyPem: pem(other).privateKeyPem });
    await expect(verify(wrong)).rejects.toThrow(/Invalid signature/);
    const good = signRfc9421({ method: 'POST', url, body, keyId, privateKeyPem: pem(key).privateKeyPem });
    await expect(verify(good, '{"type":"Delete"}')).rejects.toThrow(/Content-Digest does not match/);
    const old = signRfc9421({
      method: 'POST',
      url,
      body,
      keyId,
      privateKeyPem: pem(key).privateKeyPem,
      now: new Date(Date.now() - 3 * 3600_000),
    });
    await expect(verify(old)).rejects.toThrow(/too old/);
    const undigested = { ...good };
    delete undigested['content-digest'];
    await expect(verify(undigested)).rejects.toThrow(/Content-Digest is required/);
  });
});
