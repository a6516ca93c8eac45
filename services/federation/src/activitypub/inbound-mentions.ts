/**
 * Mentions of local users in a peer's Note (docs/federation.md, "ActivityPub"): the Note names
 * them by `Mention` tags whose `href` is the user's actor URL here, and its HTML links that URL
 * with a short text (`@alice`, as Mastodon writes it). Each link to a mentioned local actor gets
 * the user's full handle as its text, so readers here see whom it names and the post's text holds
 * the mention in this API's form (`@user@domain`): the notifier finds it there and tells the
 * user (when they may read the post, as for any mention).
 */
import type { IdMap } from './ids';
import { type Json, isObject } from './json';

const MAX_MENTIONS = 20;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `content` with the links to mentioned local actors reading as their handles. */
export async function withLocalMentions(ids: IdMap, object: Json, domain: string): Promise<Json> {
  if (typeof object.content !== 'string') return object;
  const tags = (Array.isArray(object.tag) ? object.tag : [object.tag])
    .filter(isObject)
    .slice(0, MAX_MENTIONS);
  let content = object.content;
  for (const t of tags) {
    if (t.type !== 'Mention' || typeof t.href !== 'string' || t.href.length > 2000) continue;
    const id = await ids.idOf(t.href);
    if (!id?.startsWith('@') || !id.endsWith(`@${domain}`)) continue;
    const link = new RegExp(`(<a\\b[^>]*\\bhref=(["'])${escapeRe(t.href)}\\2[^>]*>)[\\s\\S]*?(</a>)`, 'gi');
    content = content.replace(link, (_m, open: string, _q: string, close: string) => `${open}${id}${close}`);
  }
  return content === object.content ? object : { ...object, content };
}
