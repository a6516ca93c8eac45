/**
 * HTTP Signatures between servers (decisions.md §6): draft-cavage, rsa-sha256 (hs2019 accepted as
 * its alias with an RSA key), covering `(request-target) host date` and `digest` when there is a
 * body. Where the prior implementation went wrong (behaviour-notes §5.2) this does not follow it:
 * the digest is checked against the raw body bytes, a body needs a signed digest, the header is
 * parsed as quoted parameters (base64 holds `=`), the Date window is ±1 hour both ways, and a
 * signature is recorded against replay only once it verified, so a forgery cannot use up a
 * genuine signature.
 */
import { createHash, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { BadRequest, Unauthorized } from '../errors';
import { domainOf } from './domain';
import type { ReplayGuard } from './replay';
import { checkContentDigest, parseSignatureInput, parseSignatures, signatureBase } from './rfc9421';

export const SIGNATURE_DATE_WINDOW_MS = 60 * 60 * 1000;
/** A random value each signed request carries (and signs), so no two signatures are equal. */
export const NONCE_HEADER = 'x-signature-nonce';
const ALGORITHMS = new Set(['rsa-sha256', 'hs2019']);
const MIN_RSA_BITS = 2048;

export interface SignatureParams {
  keyId: string;
  algorithm: string;
  headers: string[];
  signature: string;
}

export interface ResolvedKey {
  publicKeyPem: string;
  /** The domain the key speaks for (the host of its keyId). */
  ownerDomain: string;
  /** The actor that owns the key (`publicKey.owner`, else the document's id), when known. */
  owner?: string;
  /** That actor's type: a server's key is an `Application` or `Service` actor's. */
  ownerType?: string;
}

export interface SignRequestInput {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  keyId: string;
  privateKeyPem: string;
}

export interface VerifyRequestInput {
  method: string;
  /** Path with query, as received (Express `originalUrl`). */
  path: string;
  /** Request headers with lower-cased names (Node's `req.headers`). */
  headers: Record<string, string | string[] | undefined>;
  rawBody?: Buffer;
  now?: Date;
  resolveKey: (keyId: string) => Promise<ResolvedKey>;
  /** Drops a cached key so it is fetched again; true when it did (see keys.ts). */
  forgetKey?: (keyId: string) => boolean;
  /** The actor the request speaks for; its domain must be the signer's. */
  claimedActor?: string;
  replay: ReplayGuard;
  /** The absolute URL the request was sent to (RFC 9421 signs `@target-uri`). */
  url?: string;
}

export interface VerifiedSignature {
  keyId: string;
  signerDomain: string;
  /** The actor owning the key, and its type, as its document says (keys.ts). */
  owner?: string;
  ownerType?: string;
  scheme: 'draft-cavage' | 'rfc9421';
}

export function digestOf(body: Buffer | string): string {
  return `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
}

/** The headers to add to a request: `date` when absent, `digest` when there is a body, `signature`. */
export function signRequest(input: SignRequestInput): Record<string, string> {
  if (input.keyId.includes('"')) throw new Error('keyId must not contain a double quote');
  const url = new URL(input.url);
  const given = Object.fromEntries(Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const added: Record<string, string> = {};
  if (!given.date) added.date = new Date().toUTCString();
  if (input.body !== undefined) added.digest = digestOf(input.body);
  // RSA signatures are deterministic: without a nonce, two identical requests in the same second
  // would carry one signature and the receiver's replay guard would refuse the second.
  if (!given[NONCE_HEADER]) added[NONCE_HEADER] = randomBytes(12).toString('base64url');
  const values = { host: url.host, ...given, ...added };
  const names = [
    '(request-target)',
    'host',
    'date',
    ...(input.body === undefined ? [] : ['digest']),
    NONCE_HEADER,
  ];
  const text = signingString(names, input.method, `${url.pathname}${url.search}`, values);
  const signature = sign('sha256', Buffer.from(text), input.privateKeyPem).toString('base64');
  added.signature = `keyId="${input.keyId}",algorithm="rsa-sha256",headers="${names.join(' ')}",signature="${signature}"`;
  return added;
}

const PARAM = /\s*([A-Za-z]+)\s*=\s*(?:"([^"]*)"|([^",\s]+))\s*(,|$)/y;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function parseSignatureHeader(value: string): SignatureParams {
  const malformed = (why: string) => new BadRequest(`Malformed Signature header: ${why}`);
  const params = new Map<string, string>();
  let pos = 0;
  while (pos < value.length) {
    PARAM.lastIndex = pos;
    const m = PARAM.exec(value);
    if (!m?.[1]) throw malformed('expected name="value" pairs separated by commas');
    if (params.has(m[1])) throw malformed(`${m[1]} given twice`);
    params.set(m[1], m[2] ?? m[3] ?? '');
    pos = PARAM.lastIndex;
    if (m[4] === ',' && pos >= value.length) throw malformed('trailing comma');
  }
  const keyId = params.get('keyId');
  const signature = params.get('signature');
  if (!keyId) throw malformed('no keyId');
  if (!signature) throw malformed('no signature');
  if (!BASE64.test(signature)) throw malformed('signature is not base64');
  const headers = (params.get('headers') ?? 'date').toLowerCase().split(/\s+/).filter(Boolean);
  if (!headers.length) throw malformed('empty headers list');
  return { keyId, algorithm: (params.get('algorithm') ?? 'hs2019').toLowerCase(), headers, signature };
}

export async function verifyRequest(input: VerifyRequestInput): Promise<VerifiedSignature> {
  if (input.headers['signature-input'] !== undefined) return verifyRfc9421(input);
  const header = single(input.headers.signature);
  if (!header) throw new Unauthorized('Missing Signature header');
  const params = parseOrReject(header);
  if (!ALGORITHMS.has(params.algorithm)) {
    throw new Unauthorized('Unsupported signature algorithm (use rsa-sha256 or hs2019)');
  }
  const body = input.rawBody ?? Buffer.alloc(0);
  const required = ['(request-target)', 'host', 'date', ...(body.length ? ['digest'] : [])];
  const uncovered = required.filter((h) => !params.headers.includes(h));
  if (uncovered.length) throw new Unauthorized(`Signature must cover ${uncovered.join(', ')}`);
  const values: Record<string, string> = {};
  for (const name of params.headers) {
    if (name === '(request-target)') continue;
    if (name.startsWith('(')) throw new Unauthorized(`Unsupported signed pseudo-header ${name}`);
    const value = single(input.headers[name]);
    if (value === undefined) throw new Unauthorized(`Signed header ${name} is missing`);
    values[name] = value;
  }
  const now = (input.now ?? new Date()).getTime();
  const dateMs = checkDate(values.date, now);
  checkDigest(single(input.headers.digest), body);

  const text = Buffer.from(signingString(params.headers, input.method, input.path, values));
  const signature = Buffer.from(params.signature, 'base64');
  return settle(input, params.keyId, text, signature, dateMs, now, 'draft-cavage');
}

/** RFC 9421: the first signature whose parameters this server can check (rfc9421.ts). */
async function verifyRfc9421(input: VerifyRequestInput): Promise<VerifiedSignature> {
  const inputs = parseSignatureInput(single(input.headers['signature-input']) ?? '');
  const signatures = parseSignatures(single(input.headers.signature) ?? '');
  const chosen = inputs.find((i) => signatures.has(i.label));
  if (!chosen) throw new Unauthorized('Malformed Signature-Input or Signature header');
  if (chosen.alg !== undefined && chosen.alg !== 'rsa-v1_5-sha256')
    throw new Unauthorized('Unsupported signature algorithm (use rsa-v1_5-sha256)');
  const body = input.rawBody ?? Buffer.alloc(0);
  const required = ['@method', '@target-uri', ...(body.length ? ['content-digest'] : [])];
  const uncovered = required.filter((c) => !chosen.components.includes(c));
  // `@authority` or `host` binds the request to this server; `@target-uri` holds it too.
  if (uncovered.length) throw new Unauthorized(`Signature must cover ${uncovered.join(', ')}`);
  if (!input.url) throw new Unauthorized('RFC 9421 signatures are not accepted here');
  const now = (input.now ?? new Date()).getTime();
  const createdMs = chosen.created * 1000;
  checkDate(new Date(createdMs).toUTCString(), now);
  if (body.length) checkContentDigest(single(input.headers['content-digest']), body);
  const headers: Record<string, string | undefined> = {};
  for (const c of chosen.components) if (!c.startsWith('@')) headers[c] = single(input.headers[c]);
  const text = Buffer.from(
    signatureBase({ method: input.method, url: input.url, headers }, chosen.components, chosen.parameters),
  );
  return settle(input, chosen.keyId, text, signatures.get(chosen.label)!, createdMs, now, 'rfc9421');
}

/** The key check, the domain rule, then the replay guard: shared by both formats. */
async function settle(
  input: VerifyRequestInput,
  keyId: string,
  text: Buffer,
  signature: Buffer,
  dateMs: number,
  now: number,
  scheme: VerifiedSignature['scheme'],
): Promise<VerifiedSignature> {
  let key = await resolveSigningKey(input.resolveKey, keyId);
  if (!verifies(key, text, signature)) {
    if (!input.forgetKey?.(keyId)) throw new Unauthorized('Invalid signature');
    // The signer may have rotated its key since we cached it: one fresh fetch decides.
    key = await resolveSigningKey(input.resolveKey, keyId);
    if (!verifies(key, text, signature)) throw new Unauthorized('Invalid signature');
  }
  const signerDomain = key.ownerDomain.toLowerCase();
  if (input.claimedActor !== undefined) {
    const actorDomain = domainOf(input.claimedActor);
    if (!actorDomain) throw new Unauthorized('Cannot tell the domain of the actor');
    if (actorDomain !== signerDomain) {
      throw new Unauthorized(`A key of ${signerDomain} cannot speak for an actor of ${actorDomain}`);
    }
  }
  // Remembered until its Date leaves the window, plus a second for clock rounding.
  const ttlMs = Math.max(1000, dateMs + SIGNATURE_DATE_WINDOW_MS - now + 1000);
  const hash = createHash('sha256').update(signature.toString('base64')).digest('hex');
  if (await input.replay.seen(hash, ttlMs)) throw new Unauthorized('Replayed signature');
  return { keyId, signerDomain, owner: key.owner, ownerType: key.ownerType, scheme };
}

/**
 * The keyIds a request's signature names (draft-cavage's `keyId`, RFC 9421's `keyid`), read
 * before anything is fetched, so a blocked domain's key is never asked for; none when malformed.
 */
export function signingKeyIds(headers: VerifyRequestInput['headers']): string[] {
  try {
    if (headers['signature-input'] !== undefined)
      return parseSignatureInput(single(headers['signature-input']) ?? '').map((i) => i.keyId);
    const header = single(headers.signature);
    return header ? [parseSignatureHeader(header).keyId] : [];
  } catch {
    return [];
  }
}

function parseOrReject(header: string): SignatureParams {
  try {
    return parseSignatureHeader(header);
  } catch (err) {
    if (err instanceof BadRequest) throw new Unauthorized(err.message);
    throw err;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function signingString(names: string[], method: string, path: string, values: Record<string, string>) {
  return names
    .map((n) => (n === '(request-target)' ? `${n}: ${method.toLowerCase()} ${path}` : `${n}: ${values[n]}`))
    .join('\n');
}

function checkDate(date: string | undefined, now: number): number {
  const dateMs = date === undefined ? NaN : Date.parse(date);
  if (Number.isNaN(dateMs)) throw new Unauthorized('Invalid Date header');
  if (now - dateMs > SIGNATURE_DATE_WINDOW_MS) throw new Unauthorized('Date header is too old');
  if (dateMs - now > SIGNATURE_DATE_WINDOW_MS) throw new Unauthorized('Date header is in the future');
  return dateMs;
}

function checkDigest(header: string | undefined, body: Buffer): void {
  // Absent only without a body: a body makes `digest` a required signed header.
  if (header === undefined) return;
  const entries = header.split(',').map((part) => {
    const eq = part.indexOf('=');
    return [part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim()] as const;
  });
  const known = entries.filter(([alg]) => alg === 'sha-256' || alg === 'sha-512');
  if (!known.length) throw new Unauthorized('Unsupported Digest algorithm (use SHA-256)');
  for (const [alg, value] of known) {
    const actual = createHash(alg === 'sha-256' ? 'sha256' : 'sha512')
      .update(body)
      .digest('base64');
    if (actual !== value) throw new Unauthorized('Digest does not match the body');
  }
}

/** The signing key behind `keyId`; a failure to fetch it is the signature's (401), not the server's. */
export async function resolveSigningKey(
  resolveKey: VerifyRequestInput['resolveKey'],
  keyId: string,
): Promise<ResolvedKey> {
  try {
    return await resolveKey(keyId);
  } catch (err) {
    if (err instanceof Unauthorized) throw err;
    const rejected = new Unauthorized('Signing key could not be fetched');
    rejected.cause = err;
    throw rejected;
  }
}

/** RSA-SHA256 (PKCS #1 v1.5) by `key`, of at least 2048 bits; throws Unauthorized when the key is not usable. */
export function verifies(key: ResolvedKey, text: Buffer, signature: Buffer): boolean {
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey(key.publicKeyPem);
  } catch {
    throw new Unauthorized('Signing key is not a usable public key');
  }
  const bits = publicKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (publicKey.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_BITS) {
    throw new Unauthorized(`Signing key must be RSA of at least ${MIN_RSA_BITS} bits`);
  }
  try {
    return verify('sha256', text, publicKey, signature);
  } catch {
    return false;
  }
}
