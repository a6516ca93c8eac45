export { extractToken, extractAuthorizationToken, TOKEN_HEADERS } from './extract';
export { generateServerKeyPair, keyIdOf, type KeySource, type ServerKeyPair } from './keys';
export { TokenService, type VerifiedToken, type TokenServiceOptions, type TokenUserClaim } from './tokens';
export { hashPassword, verifyPassword } from './passwords';
export { CLOCK_SKEW_SECONDS, tokenBounds, withinBounds, type TokenBounds } from './claims';
