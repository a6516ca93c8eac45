/** What the auth middleware attaches to a request. */
export interface AuthUser {
  id: string;
  username: string;
  isServerAdmin: boolean;
  isModerator: boolean;
  /** The full (sanitised) user record as loaded from the database. */
  record: Record<string, unknown>;
}

export interface RequestAuth {
  user?: AuthUser;
  /** The token was present but invalid (so the caller is not anonymous by choice). */
  invalidToken?: boolean;
  tokenSource?: 'rs256' | 'hmac';
  /** A request HTTP-signed by another server (decisions.md §6): who signed it. */
  remote?: { keyId: string; signerDomain: string };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: RequestAuth;
      requestId?: string;
    }
  }
}
