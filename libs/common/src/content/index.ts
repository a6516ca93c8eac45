export { plainText, renderMarkdown, renderRuleHtml, sanitize } from './markdown';
