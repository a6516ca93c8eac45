/**
 * Users as clients get them (the wire format, never a secret): the payloads of the auth routes,
 * and a user as others see them (behaviour-notes §3.5, fixed): personal profile fields follow the
 * profile's audience; the e-mail address is shown to its owner only.
 */
import type { Viewer } from '@agora/common/audience';
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

/** A user as `viewer` sees them. */
export function presentUser(u: UserRecord, viewer: Viewer, domain: string): Record<string, unknown> {
  const isSelf = viewer.id === u.id;
  const to = u.to ?? '@public';
  const personal =
    isSelf || to === '@public' || ((to === `@${domain}` || to === '@server') && !!viewer.id && viewer.local);
  const profile = (u.profile ?? {}) as Record<string, unknown>;
  return {
    id: u.id,
    type: u.type ?? 'Person',
    objectType: 'User',
    username: u.username,
    preferredUsername: u.username,
    name: profile.name ?? u.username,
    url: u.url,
    actorId: u.actorId,
    inbox: u.inbox,
    outbox: u.outbox,
    server: u.server,
    to,
    profile: personal
      ? profile
      : { name: profile.name, icon: profile.icon, featuredImage: profile.featuredImage },
    ...(personal ? {} : { audienceRestricted: true }),
    // Others learn only what they could list: public posts (docs/security.md, existence oracles).
    postCount: (isSelf ? u.postCount : u.publicPostCount) ?? 0,
    createdAt: u.createdAt,
    ...(isSelf
      ? {
          email: u.email ?? null,
          emailVerified: u.emailVerified ?? false,
          prefs: u.prefs ?? {},
          circles: u.circles,
        }
      : {}),
  };
}
