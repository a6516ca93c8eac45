/**
 * ActivityPub actor documents (behaviour-notes §3.5, fixed): a user's actor and the server
 * actor `@<domain>`. The server actor publishes the server key (the spec's wire is signed with
 * it, decisions.md §6); a user publishes their own key (the one their ActivityPub deliveries are
 * signed with, docs/federation.md "Keys and trust per actor"), never the server's, so no
 * signature by the server key can pass for a user's. Personal profile fields follow the
 * profile's audience, as for the JSON view; the e-mail address is never part of an actor.
 */
import type { Viewer } from '@agora/common/audience';
import type { UserRecord } from '@agora/common/db';
import { actorKeyOf } from '@agora/common/federation';
import { AS_CONTEXT } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { presentUser } from '../../users/present';

const SECURITY_CONTEXT = 'https://w3id.org/security/v1';
export const ACTIVITY_JSON = 'application/activity+json';

/** Whether the client asked for ActivityPub JSON rather than this API's `{ item }` shape. */
export function wantsActivityJson(accept: string | undefined): boolean {
  const a = (accept ?? '').toLowerCase();
  return a.includes('application/activity+json') || a.includes('application/ld+json');
}

function absolute(ctx: SocialContext, ref: unknown): string | null {
  if (typeof ref !== 'string' || !ref) return null;
  return ref.startsWith('/') ? `${ctx.config.publicUrl}${ref}` : ref;
}

function keyOf(actorUrl: string, pem: string | undefined) {
  return { id: `${actorUrl}#main-key`, owner: actorUrl, publicKeyPem: pem ?? '' };
}

export function serverActorUrl(ctx: SocialContext): string {
  return `${ctx.config.publicUrl}/users/${encodeURIComponent(`@${ctx.config.DOMAIN}`)}`;
}

/** The server actor as an `{ item }` of this API. */
export async function serverActor(ctx: SocialContext): Promise<Record<string, unknown>> {
  const { settings } = ctx.stores;
  const [profile, pem] = await Promise.all([
    settings.get<Record<string, unknown>>('profile'),
    settings.get<string>('publicKey'),
  ]);
  const p = profile ?? {};
  const url = serverActorUrl(ctx);
  return {
    id: `@${ctx.config.DOMAIN}`,
    type: 'Application',
    name: typeof p.name === 'string' && p.name ? p.name : ctx.config.DOMAIN,
    summary: typeof p.description === 'string' ? p.description : null,
    icon: absolute(ctx, p.icon),
    url,
    inbox: `${ctx.config.publicUrl}/inbox`,
    outbox: `${ctx.config.publicUrl}/outbox`,
    publicKey: keyOf(url, pem),
  };
}

/** The server actor as an ActivityPub document. */
export async function serverActorDocument(ctx: SocialContext): Promise<Record<string, unknown>> {
  const item = await serverActor(ctx);
  const icon = item.icon as string | null;
  return {
    '@context': [AS_CONTEXT, SECURITY_CONTEXT],
    ...item,
    id: item.url,
    preferredUsername: ctx.config.DOMAIN,
    icon: icon ? { type: 'Image', url: icon } : null,
    endpoints: { sharedInbox: `${ctx.config.publicUrl}/inbox` },
  };
}

/** A local user as an ActivityPub document. */
export async function userActorDocument(
  ctx: SocialContext,
  user: UserRecord,
  viewer: Viewer,
): Promise<Record<string, unknown>> {
  const { publicKeyPem: pem } = await actorKeyOf(ctx.stores.activityPub, user.id);
  const shown = presentUser(user, viewer, ctx.config.DOMAIN);
  const profile = shown.profile as Record<string, unknown>;
  const restricted = shown.audienceRestricted === true;
  const actorUrl = user.actorId ?? `${ctx.config.publicUrl}/users/${user.username}`;
  const icon = absolute(ctx, profile.icon);
  return {
    '@context': [AS_CONTEXT, SECURITY_CONTEXT],
    id: actorUrl,
    type: user.type ?? 'Person',
    objectType: 'User',
    preferredUsername: user.username,
    name: typeof profile.name === 'string' && profile.name ? profile.name : user.username,
    summary:
      !restricted && typeof profile.description === 'string' && profile.description
        ? profile.description
        : null,
    icon: icon ? { type: 'Image', url: icon } : null,
    url: user.url,
    inbox: user.inbox,
    outbox: user.outbox,
    endpoints: { sharedInbox: `${ctx.config.publicUrl}/inbox` },
    publicKey: keyOf(actorUrl, pem),
    handle: user.id,
    domain: user.domain ?? ctx.config.DOMAIN,
    profile,
    ...(restricted ? { audienceRestricted: true } : {}),
  };
}
