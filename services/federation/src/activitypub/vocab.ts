/** ActivityPub wire constants: JSON-LD contexts, media types, the Public collection. */
export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const SECURITY_CONTEXT = 'https://w3id.org/security/v1';
/**
 * Both contexts are known to every strict JSON-LD processor (Fedify preloads them). `sensitive`
 * is not in the ActivityStreams context: Mastodon's own term, defined inline as Mastodon does,
 * or a JSON-LD reader drops it (ADR 0021).
 */
export const AP_CONTEXT = [AS_CONTEXT, SECURITY_CONTEXT, { sensitive: 'as:sensitive' }];
/**
 * Actors, and the Updates that carry them: with `suspended`, Mastodon's `toot:suspended` (a
 * reversible suspension by the actor's own server, ADR 0028), defined as Mastodon does.
 */
export const AP_ACTOR_CONTEXT = [
  AS_CONTEXT,
  SECURITY_CONTEXT,
  { sensitive: 'as:sensitive', toot: 'http://joinmastodon.org/ns#', suspended: 'toot:suspended' },
];
/** With the terms of content beyond AS2 core: `Hashtag` (as Mastodon defines it), `EmojiReact` (LitePub). */
/** The extension terms this server writes and reads, as Mastodon and LitePub define them. */
export const AP_EXTENSION_TERMS = {
  sensitive: 'as:sensitive',
  Hashtag: 'as:Hashtag',
  EmojiReact: 'http://litepub.social/ns#EmojiReact',
};
export const AP_CONTENT_CONTEXT = [AS_CONTEXT, SECURITY_CONTEXT, AP_EXTENSION_TERMS];
export const AP_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
export const PUBLIC_FORMS = new Set([AP_PUBLIC, 'as:Public', 'Public', '@public']);
export const ACTIVITY_JSON = 'application/activity+json';
export const LD_JSON = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
export const AP_ACCEPT = `${ACTIVITY_JSON}, ${LD_JSON}`;
