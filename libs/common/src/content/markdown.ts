/**
 * Markdown sources rendered to sanitised HTML (the only HTML any client gets from us): the body
 * of posts, replies and pages (post.ts, reply.ts, page.ts), server rules and the server profile.
 * The configuration lives in render.ts, which the web app's compose preview imports too.
 */
export { hashtagsOf, plainText, renderMarkdown, renderRuleHtml, sanitize } from './render';
