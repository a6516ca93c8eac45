/**
 * OpenGraph and Twitter-card fields from an HTML page (issue 12). A small tolerant scan of
 * `<meta>` and `<title>` in the page head rather than a DOM: the page is untrusted, capped at
 * 1 MB by the fetch, and only these few strings are wanted.
 */
export interface PreviewFields {
  title: string | null;
  summary: string | null;
  image: string | null;
  siteName: string | null;
}

/** A Map: entity names come from the page (`&constructor;` must stay text, not Object's source). */
const ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
]);

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n =
        code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
    }
    return ENTITIES.get(code.toLowerCase()) ?? whole;
  });
}

function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-z:_-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/gi))
    out[m[1]!.toLowerCase()] = decodeEntities(m[3] ?? m[4] ?? m[5] ?? '');
  return out;
}

const clean = (s: string | undefined, max: number) => {
  const v = s?.replace(/\s+/g, ' ').trim();
  return v ? v.slice(0, max) : null;
};

/** An http(s) URL resolved against the page, or null (no `javascript:` or `data:` images). */
function absolute(raw: string | undefined, base: string): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href.slice(0, 2000) : null;
  } catch {
    return null;
  }
}

export function extractPreview(html: string, pageUrl: string): PreviewFields {
  // The head is where the tags belong; stopping there keeps a hostile body out of the scan.
  const end = html.search(/<body[\s>]/i);
  const head = end > 0 ? html.slice(0, end) : html.slice(0, 200_000);
  const meta: Record<string, string> = {};
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const a = attrs(m[0]);
    const key = (a.property ?? a.name ?? '').toLowerCase();
    if (key && a.content !== undefined && !(key in meta)) meta[key] = a.content;
  }
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(head)?.[1];
  return {
    title: clean(
      meta['og:title'] ?? meta['twitter:title'] ?? (title ? decodeEntities(title) : undefined),
      300,
    ),
    summary: clean(meta['og:description'] ?? meta['twitter:description'] ?? meta.description, 1000),
    image: absolute(
      meta['og:image'] ?? meta['og:image:url'] ?? meta['twitter:image'] ?? meta['twitter:image:src'],
      pageUrl,
    ),
    siteName: clean(meta['og:site_name'] ?? meta['application-name'], 200),
  };
}
