/**
 * Token verification of spec 5.1 and decisions.md §3: RS256 against the server public key with
 * issuer https://<domain> first; then, only when a secret is configured, a second, separately
 * pinned HMAC verify. `alg: none`, an RS256 public key used as an HMAC secret, a wrong issuer
 * and an expired token all fail, and so does any token whose lifetime, `iat` or `aud` is out of
 * the bounds of claims.ts (the gateway applies the same function).
 *
 * A verified token is remembered for VERIFIED_CACHE_MS (never past its `exp`; at most
 * VERIFIED_CACHE_SIZE tokens, the oldest forgotten first), so a client's every request does not
 * pay an RS256 signature check. The cache holds only what verified; an RS256 entry counts only
 * while the server's public key is still the one that verified it (a rotated key refuses the
 * tokens of the old one at once, cached or not). A deleted or deactivated user is refused by the
 * user check that follows (http/authenticate.ts), which this cache does not skip.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, importPKCS8, importSPKI, jwtVerify, decodeProtectedHeader, type JWTPayload } from 'jose';

type PublicKey = Awaited<ReturnType<typeof importSPKI>>;
import { tokenBounds, withinBounds, type TokenBounds } from './claims';
import { keyIdOf, type KeySource } from './keys';

export interface VerifiedToken {
  sub: string;
  source: 'rs256' | 'hmac';
  payload: JWTPayload;
}

/**
 * The `user` claim: what a client shows and needs before its first request (the client library
 * restores a session from it, then refreshes from /auth/me). Public fields only: the token is
 * readable by anyone holding it.
 */
export interface TokenUserClaim {
  id: string;
  username: string;
  name?: string;
  icon?: string;
  /** The user's Following circle: the client's follow/unfollow act on it. */
  following?: string;
}

export interface TokenServiceOptions {
  domain: string;
  keys: KeySource;
  hmacSecret?: string | undefined;
  ttlSeconds: number;
  /** PUBLIC_URL: an `aud` naming it names this server (as does `https://<domain>`). */
  publicUrl?: string;
  /** The clock (ms since the epoch), for tests; defaults to Date.now. */
  now?: () => number;
}

export const VERIFIED_CACHE_MS = 30_000;
export const VERIFIED_CACHE_SIZE = 10_000;

interface Remembered {
  token: VerifiedToken;
  until: number;
  /** The key id of the public key that verified an RS256 token. */
  kid?: string;
}

const HMAC_ALGS = ['HS256', 'HS384', 'HS512'];

export class TokenService {
  private readonly issuer: string;
  private readonly hmac: Uint8Array | undefined;
  private readonly bounds: TokenBounds;
  private cached: { pem: string; key: PublicKey; kid: string } | undefined;
  private readonly verified = new Map<string, Remembered>();
  private readonly now: () => number;

  constructor(private readonly opts: TokenServiceOptions) {
    this.issuer = `https://${opts.domain}`;
    this.hmac = opts.hmacSecret ? new TextEncoder().encode(opts.hmacSecret) : undefined;
    this.now = opts.now ?? Date.now;
    this.bounds = tokenBounds({
      DOMAIN: opts.domain,
      publicUrl: opts.publicUrl ?? this.issuer,
      tokenTtlSeconds: opts.ttlSeconds,
    });
  }

  private accepted(payload: JWTPayload, source: VerifiedToken['source']): VerifiedToken | null {
    const nowSeconds = Math.floor(this.now() / 1000);
    if (typeof payload.sub !== 'string' || !withinBounds(payload, this.bounds, nowSeconds)) return null;
    return { sub: payload.sub, source, payload };
  }

  private remember(raw: string, token: VerifiedToken | null, kid?: string): VerifiedToken | null {
    if (!token) return null;
    const until = Math.min(this.now() + VERIFIED_CACHE_MS, (token.payload.exp ?? 0) * 1000);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(raw, { token, until, ...(kid ? { kid } : {}) });
    return token;
  }

  /** A token verified a moment ago, if it still counts (unexpired, its key still current). */
  private async recalled(raw: string): Promise<VerifiedToken | undefined> {
    const hit = this.verified.get(raw);
    if (!hit) return undefined;
    if (hit.until > this.now()) {
      if (hit.token.source === 'hmac') return hit.token;
      if ((await this.publicKey())?.kid === hit.kid) return hit.token;
    }
    this.verified.delete(raw);
    return undefined;
  }

  private options(): { issuer: string; currentDate: Date } {
    return { issuer: this.issuer, currentDate: new Date(this.now()) };
  }

  private async publicKey(): Promise<{ key: PublicKey; kid: string } | undefined> {
    const pem = await this.opts.keys.publicKey();
    if (!pem) return undefined;
    if (this.cached?.pem !== pem)
      this.cached = { pem, key: await importSPKI(pem, 'RS256'), kid: keyIdOf(pem) };
    return this.cached;
  }

  /** RS256 only (the admin guard of spec 5.3.4). */
  async verifyRs256(token: string): Promise<VerifiedToken | null> {
    const hit = await this.recalled(token);
    if (hit) return hit.source === 'rs256' ? hit : null;
    return this.checkRs256(token);
  }

  private async checkRs256(token: string): Promise<VerifiedToken | null> {
    let pub = await this.publicKey();
    if (!pub) return null;
    const kid = safeKid(token);
    if (kid && kid !== pub.kid) {
      this.opts.keys.refresh();
      pub = await this.publicKey();
      if (!pub) return null;
    }
    try {
      const { payload } = await jwtVerify(token, pub.key, { algorithms: ['RS256'], ...this.options() });
      return this.remember(token, this.accepted(payload, 'rs256'), pub.kid);
    } catch {
      return null;
    }
  }

  private async verifyHmac(token: string): Promise<VerifiedToken | null> {
    if (!this.hmac) return null;
    try {
      // A shared-secret token that never expires (or expires in 1e300) is a password that cannot
      // be rotated away: withinBounds requires `exp` and bounds it.
      const { payload } = await jwtVerify(token, this.hmac, { algorithms: HMAC_ALGS, ...this.options() });
      return this.remember(token, this.accepted(payload, 'hmac'));
    } catch {
      return null;
    }
  }

  /** RS256 first, then the HMAC fallback. */
  async verify(token: string): Promise<VerifiedToken | null> {
    const hit = await this.recalled(token);
    if (hit) return hit;
    return (await this.checkRs256(token)) ?? (await this.verifyHmac(token));
  }

  async issue(userId: string, user?: TokenUserClaim): Promise<string> {
    const pem = await this.opts.keys.privateKey();
    const pub = await this.publicKey();
    if (!pem || !pub) throw new Error('server key pair is not initialised');
    const key = await importPKCS8(pem, 'RS256');
    return new SignJWT(user ? { user } : {})
      .setProtectedHeader({ alg: 'RS256', kid: pub.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(userId)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${this.opts.ttlSeconds}s`)
      .sign(key);
  }
}

function safeKid(token: string): string | undefined {
  try {
    return decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
}
