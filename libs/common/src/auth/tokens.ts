/**
 * Token verification of spec 5.1 and decisions.md §3: RS256 against the server public key with
 * issuer https://<domain> first; then, only when a secret is configured, a second, separately
 * pinned HMAC verify. `alg: none`, an RS256 public key used as an HMAC secret, a wrong issuer
 * and an expired token all fail, and so does any token whose lifetime, `iat` or `aud` is out of
 * the bounds of claims.ts (the gateway applies the same function).
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
}

const HMAC_ALGS = ['HS256', 'HS384', 'HS512'];

export class TokenService {
  private readonly issuer: string;
  private readonly hmac: Uint8Array | undefined;
  private readonly bounds: TokenBounds;
  private cached: { pem: string; key: PublicKey; kid: string } | undefined;

  constructor(private readonly opts: TokenServiceOptions) {
    this.issuer = `https://${opts.domain}`;
    this.hmac = opts.hmacSecret ? new TextEncoder().encode(opts.hmacSecret) : undefined;
    this.bounds = tokenBounds({
      DOMAIN: opts.domain,
      publicUrl: opts.publicUrl ?? this.issuer,
      tokenTtlSeconds: opts.ttlSeconds,
    });
  }

  private accepted(payload: JWTPayload, source: VerifiedToken['source']): VerifiedToken | null {
    if (typeof payload.sub !== 'string' || !withinBounds(payload, this.bounds)) return null;
    return { sub: payload.sub, source, payload };
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
    let pub = await this.publicKey();
    if (!pub) return null;
    const kid = safeKid(token);
    if (kid && kid !== pub.kid) {
      this.opts.keys.refresh();
      pub = await this.publicKey();
      if (!pub) return null;
    }
    try {
      const { payload } = await jwtVerify(token, pub.key, { algorithms: ['RS256'], issuer: this.issuer });
      return this.accepted(payload, 'rs256');
    } catch {
      return null;
    }
  }

  private async verifyHmac(token: string): Promise<VerifiedToken | null> {
    if (!this.hmac) return null;
    try {
      // A shared-secret token that never expires (or expires in 1e300) is a password that cannot
      // be rotated away: withinBounds requires `exp` and bounds it.
      const { payload } = await jwtVerify(token, this.hmac, { algorithms: HMAC_ALGS, issuer: this.issuer });
      return this.accepted(payload, 'hmac');
    } catch {
      return null;
    }
  }

  /** RS256 first, then the HMAC fallback. */
  async verify(token: string): Promise<VerifiedToken | null> {
    return (await this.verifyRs256(token)) ?? (await this.verifyHmac(token));
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
