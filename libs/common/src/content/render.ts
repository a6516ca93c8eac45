/**
 * The one markdown configuration, shared by the server (markdown.ts renders every stored body with
 * it) and the web app (the compose preview imports this very file, lazily: docs/web.md), so the
 * preview shows exactly what will be published. It must stay free of Node-only imports.
 *
 * GitHub-flavoured markdown with line breaks, bare URLs linked, `#hashtags` linked to the search
 * and `@user@host` mentions linked to the profile; then sanitised to one allow-list.
 */
import { Marked, type TokenizerAndRendererExtension, type Tokens } from 'marked';
import sanitizeHtml from 'sanitize-html';

export const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'u',
    's',
    'del',
    'a',
    'ul',
    'ol',
    'li',
    'blockquote',
    'code',
    'pre',
    'h1',
    'h2',
    'h3',
    'h4',
    'hr',
    'img',
  ],
  allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer' }) },
};

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A tag: letters, digits and `_`, with at least one letter or `_` (`#1` is not a tag). */
const TAG = /^#([\p{L}\p{N}_]*[\p{L}_][\p{L}\p{N}_]*)/u;
/** A handle: `@user@host` (the users service's usernames; any domain). */
const HANDLE = /^@([a-z0-9_]{2,32})@([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?![\w-]|\.[\w-])/i;

/** Where a token may start: at the start or after a character that cannot end a word or an address. */
function startOf(src: string, sigil: '#' | '@'): number | undefined {
  const re = sigil === '#' ? /(^|[^\p{L}\p{N}_&#/])#[\p{L}\p{N}_]/u : /(^|[^\w@/.])@\w/;
  const m = re.exec(src);
  return m ? m.index + m[1]!.length : undefined;
}

const hashtag: TokenizerAndRendererExtension = {
  name: 'hashtag',
  level: 'inline',
  start: (src) => startOf(src, '#'),
  tokenizer(src) {
    if (this.lexer.state.inLink) return undefined;
    const m = TAG.exec(src);
    return m ? { type: 'hashtag', raw: m[0], tag: m[1]! } : undefined;
  },
  renderer: (token: Tokens.Generic) =>
    `<a href="/search?q=${encodeURIComponent(`#${String(token.tag)}`)}">#${escapeHtml(String(token.tag))}</a>`,
};

const mention: TokenizerAndRendererExtension = {
  name: 'mention',
  level: 'inline',
  start: (src) => startOf(src, '@'),
  tokenizer(src) {
    if (this.lexer.state.inLink) return undefined;
    const m = HANDLE.exec(src);
    return m ? { type: 'mention', raw: m[0], handle: m[0].toLowerCase() } : undefined;
  },
  renderer: (token: Tokens.Generic) =>
    `<a href="/users/${encodeURIComponent(String(token.handle))}">${escapeHtml(String(token.raw))}</a>`,
};

const md = new Marked({ gfm: true, breaks: true, async: false, extensions: [hashtag, mention] });

/**
 * The `#hashtags` of a markdown source, exactly those the renderer links (not in code, not inside
 * a link), lower-cased and each once, in order of appearance: what search indexes (ADR 0008).
 */
export function hashtagsOf(source: string): string[] {
  const tags = new Set<string>();
  // walkTokens returns the callbacks' results; these are all synchronous (no promises).
  void md.walkTokens(md.lexer(source), (token) => {
    if (token.type === 'hashtag') tags.add(String(token.tag).toLowerCase());
  });
  return [...tags];
}

/** Markdown to the sanitised HTML that clients are given (and the preview shows). */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(md.parse(source, { async: false }), ALLOWED);
}

/** HTML from elsewhere (a remote server, a description) through the same allow-list. */
export function sanitize(html: string): string {
  return sanitizeHtml(html, ALLOWED);
}

const RULE_HTML: sanitizeHtml.IOptions = {
  ...ALLOWED,
  allowedTags: ['p', 'br', 'strong', 'em', 's', 'u', 'a', 'ul', 'ol', 'li', 'code', 'blockquote'],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'], ol: ['start'] },
};

/** Server rules: markdown rendered to a smaller allow-list (no headings, images or code blocks). */
export function renderRuleHtml(source: string): string {
  return sanitizeHtml(md.parse(source, { async: false }), RULE_HTML).trim();
}

/** Plain text (for summaries, excerpts and notifications). */
export function plainText(source: string, max = 300): string {
  const text = sanitizeHtml(renderMarkdown(source), { allowedTags: [], allowedAttributes: {} })
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
