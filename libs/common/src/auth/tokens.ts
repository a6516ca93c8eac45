/**
 * Token verification of spec 5.1 and decisions.md §3: RS256 against the server public key with
 * issuer https://<domain> first; then, only when a secret is configured, a second, separately
 * pinned HMAC verify. `alg: none`, an RS256 public key used as an HMAC secret, a wrong issuer
 * and an expired token all fail.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, importPKCS8, importSPKI, jwtVerify, decodeProtectedHeader, type JWTPayload } from 'jose';

type PublicKey = Awaited<ReturnType<typeof importSPKI>>;
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
}

const HMAC_ALGS = ['HS256', 'HS384', 'HS512'];

export class TokenService {
  private readonly issuer: string;
  private readonly hmac: Uint8Array | undefined;
  private cached: { pem: string; key: PublicKey; kid: string } | undefined;

  constructor(private readonly opts: TokenServiceOptions) {
    this.issuer = `https://${opts.domain}`;
    this.hmac = opts.hmacSecret ? new TextEncoder().encode(opts.hmacSecret) : undefined;
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
      return typeof payload.sub === 'string' ? { sub: payload.sub, source: 'rs256', payload } : null;
    } catch {
      return null;
    }
  }

  private async verifyHmac(token: string): Promise<VerifiedToken | null> {
    if (!this.hmac) return null;
    try {
      const { payload } = await jwtVerify(token, this.hmac, {
        algorithms: HMAC_ALGS,
        issuer: this.issuer,
        // A shared-secret token that never expires is a password that cannot be rotated away.
        requiredClaims: ['exp'],
      });
      return typeof payload.sub === 'string' ? { sub: payload.sub, source: 'hmac', payload } : null;
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
