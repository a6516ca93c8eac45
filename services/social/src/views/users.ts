/**
 * A user as others see them (behaviour-notes §3.5, fixed): personal profile fields follow the
 * profile's audience; the e-mail address is shown to its owner only; secrets never.
 */
import type { Viewer } from '@agora/common/audience';
import type { UserRecord } from '@agora/common/db';

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
