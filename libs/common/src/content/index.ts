export { plainText, renderMarkdown, renderRuleHtml, sanitize } from './markdown';
export { slugify } from './slug';
