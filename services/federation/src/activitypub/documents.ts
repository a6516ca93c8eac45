/**
 * What this server's ActivityPub URLs answer (docs/federation.md, "ActivityPub"): actors with
 * their own key (`publicKey.owner` = the actor), the server actor as an `Application` with the
 * server key, posts as `Note` or `Article`, every id and reference a URL (ids.ts).
 */
import type { PostDoc, ReplyRecord, UserRecord } from '@agora/common/db';
import { wireSensitivity } from '@agora/common/content';
import { actorKeyOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { idMap, localUrlOf, serverActorUrl } from './ids';
import { tagsOf } from './outbound-content';
import { AP_ACTOR_CONTEXT, AP_CONTENT_CONTEXT, AP_CONTEXT, AP_PUBLIC } from './vocab';

type Json = Record<string, unknown>;

function absolute(ctx: FederationContext, ref: unknown): string | undefined {
  if (typeof ref !== 'string' || !ref) return undefined;
  return ref.startsWith('/') ? `${ctx.config.publicUrl}${ref}` : ref;
}

export async function serverActorDocument(ctx: FederationContext): Promise<Json> {
  const [profile, pem] = await Promise.all([
    ctx.stores.settings.get<{ name?: string; description?: string }>('profile'),
    ctx.stores.settings.get<string>('publicKey'),
  ]);
  const url = serverActorUrl(ctx.config);
  return {
    '@context': AP_CONTEXT,
    id: url,
    type: 'Application',
    preferredUsername: ctx.config.DOMAIN,
    name: profile?.name || ctx.config.DOMAIN,
    summary: profile?.description ?? '',
    url: ctx.config.publicUrl,
    inbox: `${ctx.config.publicUrl}/inbox`,
    outbox: `${url}/outbox`,
    endpoints: { sharedInbox: `${ctx.config.publicUrl}/inbox` },
    publicKey: { id: `${url}#main-key`, owner: url, publicKeyPem: pem ?? '' },
  };
}

export function userActorUrls(ctx: FederationContext, user: Pick<UserRecord, 'id'>) {
  const url = localUrlOf(ctx.config, user.id)!;
  return {
    url,
    inbox: `${ctx.config.publicUrl}/users/${user.id.split('@')[1]}/inbox`,
    outbox: `${url}/outbox`,
    followers: `${url}/followers`,
    following: `${url}/following`,
  };
}

/** Whether a local account is under an admin's suspension (ADR 0028): soft-deleted, kept for a restore. */
export function isSuspended(user: Pick<UserRecord, 'suspended' | 'active' | 'deletedAt'>): boolean {
  return user.suspended === true && (user.active === false || !!user.deletedAt);
}

/**
 * A local user as a Person (a Service for bots). While the account is suspended it says so
 * (`suspended: true`, as Mastodon does) and shows no more than its name and key: the profile is
 * hidden here as everywhere else, and peers keep the actor for the restore.
 */
export async function userActorDocument(ctx: FederationContext, user: UserRecord): Promise<Json> {
  const key = await actorKeyOf(ctx.stores.activityPub, user.id);
  const urls = userActorUrls(ctx, user);
  const suspended = isSuspended(user);
  const profile = (suspended ? {} : (user.profile ?? {})) as Json;
  const username = user.username;
  const icon = absolute(ctx, profile.icon);
  // The profile's other fields follow its audience; only what everyone may read goes here.
  const open = user.to === '@public';
  return {
    '@context': AP_ACTOR_CONTEXT,
    id: urls.url,
    type: user.type === 'Service' ? 'Service' : 'Person',
    preferredUsername: username,
    name: typeof profile.name === 'string' && profile.name ? profile.name : username,
    summary: open && typeof profile.description === 'string' ? profile.description : '',
    url: `${ctx.config.publicUrl}/@${username}`,
    inbox: urls.inbox,
    outbox: urls.outbox,
    followers: urls.followers,
    following: urls.following,
    endpoints: { sharedInbox: `${ctx.config.publicUrl}/inbox` },
    ...(icon ? { icon: { type: 'Image', url: icon } } : {}),
    publicKey: { id: `${urls.url}#main-key`, owner: urls.url, publicKeyPem: key.publicKeyPem },
    ...(suspended ? { suspended: true } : {}),
  };
}

/** A public local post as a Note (an Article when it has a title), with its `tag`. */
export async function noteOf(ctx: FederationContext, post: PostDoc): Promise<Json> {
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const author = (await ids.urlOf(post.actorId)) ?? post.actorId;
  const title = (post as { title?: unknown }).title;
  const article = post.type === 'Article' || (typeof title === 'string' && !!title);
  const { tag, mentioned, content } = await tagsOf(ctx, ids, post.source?.content ?? '', post.body ?? '');
  return {
    id: localUrlOf(ctx.config, post.id) ?? post.id,
    type: article ? 'Article' : 'Note',
    attributedTo: author,
    ...(article && typeof title === 'string' ? { name: title } : {}),
    content,
    published: (post.publishedAt ?? new Date()).toISOString(),
    url: post.url ?? undefined,
    to: [AP_PUBLIC],
    cc: [`${author}/followers`, ...mentioned],
    ...(tag.length ? { tag } : {}),
    ...wireSensitivity(post),
  };
}

/** A local reply in a public thread as a Note answering its parent (by URL). */
export async function replyNoteOf(ctx: FederationContext, reply: ReplyRecord): Promise<Json> {
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const author = (await ids.urlOf(reply.actorId)) ?? reply.actorId;
  const { tag, mentioned, content } = await tagsOf(ctx, ids, reply.source?.content ?? '', reply.body ?? '');
  return {
    id: localUrlOf(ctx.config, reply.id) ?? reply.id,
    type: 'Note',
    attributedTo: author,
    inReplyTo: (await ids.urlOf(reply.parent)) ?? null,
    content,
    published: (reply.createdAt ?? new Date()).toISOString(),
    to: [AP_PUBLIC],
    cc: [`${author}/followers`, ...mentioned],
    ...(tag.length ? { tag } : {}),
    ...wireSensitivity(reply),
  };
}

/** An OrderedCollection (no `page`) or one of its pages, as decisions.md §5 pages collections. */
export function orderedCollection(
  id: string,
  totalItems: number,
  /** `next`: whether there is a next page (`?page=n+1`), or its URL (a cursor). */
  page: { items: unknown[]; index: number; next: boolean | string } | undefined,
): Json {
  if (!page) {
    return { '@context': AP_CONTEXT, id, type: 'OrderedCollection', totalItems, first: `${id}?page=1` };
  }
  return {
    '@context': AP_CONTENT_CONTEXT,
    id: `${id}?page=${page.index}`,
    type: 'OrderedCollectionPage',
    partOf: id,
    totalItems,
    orderedItems: page.items,
    ...(page.next
      ? { next: typeof page.next === 'string' ? page.next : `${id}?page=${page.index + 1}` }
      : {}),
    ...(page.index > 1 ? { prev: `${id}?page=${page.index - 1}` } : {}),
  };
}
