/**
 * Search terms (docs/adr/0008-search-prefix-terms.md): text is folded (NFKD, marks dropped,
 * lower case) and split into words; each word contributes its prefixes of 2 to MAX_PREFIX
 * characters, so "Photography" is found by "ph", "photo" or "photograph". Tags contribute the
 * same prefixes behind a `#`, which only a `#` query matches.
 */
import { BadRequest } from '@agora/common/errors';

export const MIN_TERM = 2;
export const MAX_PREFIX = 15;
/** Distinct words indexed per object: bounds the index entry (~MAX_WORDS × 14 terms). */
export const MAX_WORDS = 60;
export const MAX_QUERY = 100;
const MAX_QUERY_WORDS = 5;

export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

export function wordsOf(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= MIN_TERM);
}

function prefixes(word: string, mark = ''): string[] {
  const out: string[] = [];
  for (let i = MIN_TERM; i <= Math.min(word.length, MAX_PREFIX); i++) out.push(mark + word.slice(0, i));
  return out;
}

export function termsOf(
  texts: Array<string | null | undefined>,
  tags: Array<string | null | undefined> = [],
): string[] {
  const words = new Set<string>();
  for (const t of texts) {
    if (typeof t !== 'string') continue;
    for (const w of wordsOf(t)) {
      if (words.size >= MAX_WORDS) break;
      words.add(w);
    }
  }
  const terms = new Set<string>();
  for (const w of words) for (const p of prefixes(w)) terms.add(p);
  for (const tag of tags)
    if (typeof tag === 'string')
      for (const w of wordsOf(tag.replace(/^#/, ''))) for (const p of prefixes(w, '#')) terms.add(p);
  return [...terms];
}

/** The terms a query must all match; 400 for a query that is too long or has no usable word. */
export function queryTerms(q: unknown): string[] {
  if (typeof q !== 'string' || !q.trim()) throw new BadRequest('q: search query is required');
  if (q.length > MAX_QUERY) throw new BadRequest(`q: at most ${MAX_QUERY} characters`);
  const terms = new Set<string>();
  for (const token of q.trim().split(/\s+/)) {
    const tag = token.startsWith('#');
    for (const w of wordsOf(tag ? token.slice(1) : token))
      terms.add((tag ? '#' : '') + w.slice(0, MAX_PREFIX));
  }
  if (!terms.size) throw new BadRequest(`q: needs a word of at least ${MIN_TERM} letters or digits`);
  return [...terms].slice(0, MAX_QUERY_WORDS);
}
