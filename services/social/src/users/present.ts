/** The user payloads of the auth routes (the wire format clients expect, without secrets). */
import type { UserRecord } from '@agora/common/db';
import type { TokenUserClaim } from '@agora/common/auth';

export function circlesOf(u: UserRecord) {
  const c = (u.circles ?? {}) as Record<string, string | undefined>;
  return {
    following: c.following || null,
    allFollowing: c.allFollowing || null,
    blocked: c.blocked || null,
    muted: c.muted || null,
    groups: c.groups || null,
  };
}

/** Body of POST /register. */
export function registeredUser(u: UserRecord) {
  return {
    id: u.id,
    actorId: u.actorId,
    username: u.username,
    email: u.email ?? null,
    profile: u.profile ?? {},
    ...circlesOf(u),
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

/** Body of POST /auth/login and GET /auth/me. */
export function sessionUser(u: UserRecord, roles: { isServerAdmin: boolean; isModerator: boolean }) {
  return {
    id: u.id,
    username: u.username,
    type: u.type,
    actorId: u.actorId,
    email: u.email ?? null,
    emailVerified: u.emailVerified ?? false,
    profile: u.profile ?? {},
    prefs: u.prefs ?? {},
    ...circlesOf(u),
    isServerAdmin: roles.isServerAdmin,
    isModerator: roles.isModerator,
  };
}

/** The token's `user` claim (public fields only; see TokenUserClaim). */
export function tokenClaim(u: UserRecord): TokenUserClaim {
  const profile = (u.profile ?? {}) as { name?: string; icon?: string };
  const following = circlesOf(u).following;
  return {
    id: u.id,
    username: u.username,
    ...(profile.name ? { name: profile.name } : {}),
    ...(profile.icon ? { icon: profile.icon } : {}),
    ...(following ? { following } : {}),
  };
}
