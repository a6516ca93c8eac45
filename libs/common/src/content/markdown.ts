/**
 * Markdown sources rendered to sanitised HTML (the only HTML any client gets from us): the body
 * of posts, replies and pages (post.ts, reply.ts, page.ts), server rules and the server profile.
 */
import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const ALLOWED = {
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
  allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer' }) },
};

export function renderMarkdown(source: string): string {
  const html = marked.parse(source, { async: false, gfm: true, breaks: true });
  return sanitizeHtml(html, ALLOWED);
}

export function sanitize(html: string): string {
  return sanitizeHtml(html, ALLOWED);
}

/** Plain text (for summaries and notifications). */
export function plainText(source: string, max = 300): string {
  const text = sanitizeHtml(renderMarkdown(source), { allowedTags: [], allowedAttributes: {} })
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const RULE_HTML = {
  ...ALLOWED,
  allowedTags: ['p', 'br', 'strong', 'em', 's', 'u', 'a', 'ul', 'ol', 'li', 'code', 'blockquote'],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
};

/** Server rules: markdown rendered to a smaller allow-list (no headings, images or code blocks). */
export function renderRuleHtml(source: string): string {
  const html = marked.parse(source, { async: false, gfm: true, breaks: true });
  return sanitizeHtml(html, RULE_HTML).trim();
}
