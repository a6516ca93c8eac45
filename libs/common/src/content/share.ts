/**
 * A share (a boost) as this server keeps it (ADR 0022, ADR 0024): a public post by the sharer
 * whose body links to the original's author and quotes the original's HTML, and whose `url` is
 * the original's. One builder for both ways: an inbound ActivityPub `Announce`
 * (services/federation, inbound-announce.ts) and a local user's `Announce` (services/social,
 * handlers/shares) make the same body.
 */
import type { ActorRef } from '../db/repositories/content-records';
import { plainText, sanitize } from './markdown';

/** What a share shows of the post it shares. */
export interface SharedOriginal {
  /** The original's URL (where it is read). */
  url: string;
  /** The original's author, as this API names them (`@bob@domain`). */
  author: string;
  /** The original's HTML. */
  content: string;
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The share's HTML: 🔁 and a link to the original's author, then the original quoted. */
export function shareContent(original: SharedOriginal): string {
  const by = `<a href="${escape(original.url)}">${escape(original.author)}</a>`;
  return `<p>🔁 ${by}</p><blockquote>${original.content.slice(0, 100_000)}</blockquote>`;
}

/** A local user's share of a public post, as stored (`shareOf` names the original). */
export function newShare(
  original: SharedOriginal & {
    id: string;
    contentWarning?: string | null | undefined;
    sensitive?: boolean | null | undefined;
  },
  origin: { id: string; author: ActorRef & { id: string }; server: string },
  publishedAt = new Date(),
) {
  const body = sanitize(shareContent(original));
  const text = plainText(body);
  return {
    id: origin.id,
    type: 'Note',
    actorId: origin.author.id,
    actor: origin.author,
    server: origin.server,
    url: original.url,
    summary: text,
    // No markdown of the sharer's own: the handles and tags it quotes are the original's, so the
    // share mentions no one (no notification, no Mention on the wire) and tags nothing.
    source: { content: '', mediaType: 'text/html' },
    body,
    tags: [],
    attachments: [],
    media: [],
    // The original's warning stays with what it quotes (ADR 0021).
    contentWarning: original.contentWarning ?? '',
    sensitive: original.sensitive ?? false,
    to: '@public',
    canReply: '@public',
    canReact: '@public',
    group: null,
    shareOf: original.id,
    publishedAt,
  };
}
