/**
 * Outbound ActivityPub content beyond the id mapping (docs/federation.md, "ActivityPub"): a
 * reaction is a `Like` when it is 👍 (this API's "Like"), else an `EmojiReact` with the emoji as
 * `content`; a removed post or reply is a
 * `Tombstone`; a Note carries `tag` (a `Mention` per handle the markdown names, with the actor's
 * URL, and a `Hashtag` per tag), its mentioned actors and the replied-to author in `cc`, and its
 * links absolute.
 */
import type { FederationContext } from '../context';
import type { IdMap } from './ids';
import { LIKE_EMOJI } from './inbound-content';
import { AP_CONTENT_CONTEXT, AP_PUBLIC } from './vocab';
import { type Json, isObject } from './json';

const HASHTAG = /(^|[^\p{L}\p{N}_&#/])#([\p{L}\p{N}_]*[\p{L}_][\p{L}\p{N}_]*)/gu;
const HANDLE = /(^|[^\w@/.])@([a-z0-9_]{2,32})@([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?![\w-]|\.[\w-])/gi;
const MAX_TAGS = 20;

export interface Tagged {
  tag: Json[];
  /** The mentioned actors' URLs (they go in `cc`). */
  mentioned: string[];
  /** The HTML with this server's relative links absolute and mentions linking to the actor. */
  content: string;
}

/** The `@user@domain` handles a markdown text names, lower-cased, at most MAX_TAGS. */
export function mentionedHandles(markdown: string): string[] {
  const handles = new Set([...markdown.matchAll(HANDLE)].map((m) => `@${m[2]}@${m[3]}`.toLowerCase()));
  return [...handles].slice(0, MAX_TAGS);
}

/** `tag`, the mentioned actors and the absolute HTML of a post or reply written here. */
export async function tagsOf(
  ctx: FederationContext,
  ids: IdMap,
  markdown: string,
  html: string,
): Promise<Tagged> {
  const tag: Json[] = [];
  const mentioned: string[] = [];
  let content = html;
  for (const handle of mentionedHandles(markdown)) {
    const href = await ids.urlOf(handle);
    if (!href) continue;
    tag.push({ type: 'Mention', href, name: handle });
    mentioned.push(href);
    content = content.split(`href="/users/${encodeURIComponent(handle)}"`).join(`href="${href}"`);
  }
  const tags = new Set([...markdown.matchAll(HASHTAG)].map((m) => m[2]!.toLowerCase()));
  for (const name of [...tags].slice(0, MAX_TAGS))
    tag.push({
      type: 'Hashtag',
      href: `${ctx.config.publicUrl}/search?q=${encodeURIComponent(`#${name}`)}`,
      name: `#${name}`,
    });
  content = content.replace(/href="\/(?!\/)/g, `href="${ctx.config.publicUrl}/`);
  return { tag, mentioned, content };
}

/** The author of a post or reply held here, by URL (a reply or reaction names them, so they are notified). */
export async function authorUrlOf(
  ctx: FederationContext,
  ids: IdMap,
  parent: unknown,
): Promise<string | undefined> {
  if (typeof parent !== 'string') return undefined;
  const doc = parent.startsWith('reply:')
    ? await ctx.stores.replies.byId(parent)
    : await ctx.stores.posts.byId(parent);
  return doc?.actorId ? ids.urlOf(doc.actorId) : undefined;
}

/** A Note of the spec's wire (source markdown, HTML content) with its ActivityPub `tag` and `cc`. */
export async function withTags(ctx: FederationContext, ids: IdMap, spec: Json, mapped: Json): Promise<Json> {
  const source = isObject(spec.source) ? spec.source : {};
  const markdown = typeof source.content === 'string' ? source.content : '';
  const html = typeof spec.content === 'string' ? spec.content : '';
  const { tag, mentioned, content } = await tagsOf(ctx, ids, markdown, html);
  const author = await authorUrlOf(ctx, ids, spec.inReplyTo);
  const cc = Array.isArray(mapped.cc) ? (mapped.cc as string[]) : [];
  const extra = [...mentioned, ...(author ? [author] : [])];
  return {
    ...mapped,
    content,
    ...(tag.length ? { tag } : {}),
    ...(extra.length ? { cc: [...new Set([...cc, ...extra])] } : {}),
  };
}

const publicOr = (spec: Json): string[] => {
  const all = [spec.to, spec.cc].flat();
  return all.some((t) => t === '@public' || t === AP_PUBLIC) ? [AP_PUBLIC] : [];
};

/**
 * The spec's React (or its Undo) as a Like / EmojiReact (or their Undo); undefined when
 * unmappable. Each React is its own activity (its id the spec's activity id: a change of emoji is
 * a new one, which peers that deduplicate by id would drop otherwise); an Undo names the reaction
 * by its actor and object, as Mastodon matches it, since the emoji it had is no longer known.
 */
export async function reactionToAp(
  ctx: FederationContext,
  ids: IdMap,
  spec: Json,
  actorUrl: string,
): Promise<Json | undefined> {
  const undo = spec.type === 'Undo';
  const react = undo && isObject(spec.object) ? spec.object : spec;
  const reaction = isObject(react.object) ? react.object : {};
  const target = typeof react.to === 'string' ? await ids.urlOf(react.to) : undefined;
  const activityId = typeof spec.id === 'string' ? spec.id : undefined;
  if (!target || !activityId) return undefined;
  const emoji = typeof reaction.emoji === 'string' ? reaction.emoji : LIKE_EMOJI;
  const author = await authorUrlOf(ctx, ids, react.to);
  const to = [...(author ? [author] : []), ...publicOr(spec)];
  const like = {
    type: emoji === LIKE_EMOJI ? 'Like' : 'EmojiReact',
    actor: actorUrl,
    object: target,
    ...(emoji === LIKE_EMOJI ? {} : { content: emoji }),
  };
  if (!undo) return { '@context': AP_CONTENT_CONTEXT, id: activityId, ...like, to };
  return { '@context': AP_CONTENT_CONTEXT, id: activityId, type: 'Undo', actor: actorUrl, to, object: like };
}

/** Delete of a post or reply by id → its object a Tombstone. */
export function tombstone(url: string): Json {
  return { id: url, type: 'Tombstone' };
}
