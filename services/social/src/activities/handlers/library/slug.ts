/** Page slugs (behaviour-notes §2.4 Page): lower-case, accents folded, words joined by `-`. */
import type { Runtime } from '@agora/common';

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .replace(/[\s_\p{P}\p{S}]+/gu, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 100)
    .replace(/-$/, '');
}

/**
 * The first free slug among `base`, `base-2`, `base-3`… for local pages (deleted ones included:
 * an admin may restore them). `base` is already slugified, so it is safe inside the pattern.
 */
export async function uniqueSlug(rt: Runtime, base: string): Promise<string> {
  const used = new Set(await rt.repos.pages.slugsLike(new RegExp(`^${base}(-[0-9]+)?$`)));
  if (!used.has(base)) return base;
  let n = 2;
  while (used.has(`${base}-${n}`)) n += 1;
  return `${base}-${n}`;
}
