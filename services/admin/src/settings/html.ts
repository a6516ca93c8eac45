/**
 * The HTML the admin API writes into settings. Kept admin-side (the services share no code but
 * libs/common): rule text is markdown rendered to a small allow-list, the server profile's
 * description is sanitised with the post allow-list.
 */
import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

const SCHEMES = ['http', 'https', 'mailto'];
const SAFE_LINK = sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer' });

const RULE_HTML: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'em', 's', 'u', 'a', 'ul', 'ol', 'li', 'code', 'blockquote'],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  allowedSchemes: SCHEMES,
  transformTags: { a: SAFE_LINK },
};

const POST_HTML: sanitizeHtml.IOptions = {
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
  allowedSchemes: SCHEMES,
  transformTags: { a: SAFE_LINK },
};

export function ruleHtml(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return sanitizeHtml(html, RULE_HTML).trim();
}

export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, POST_HTML);
}
