/**
 * Checks that translation catalogues match (ADR 0026): the same messages in every language, and
 * each message with the same placeholders (`{{name}}`, `{{count, number}}`) and element tags
 * (`<0>…</0>`). Plural forms (`_one`, `_other`, ...) are one message: a language may have more
 * or fewer forms than English, but needs `_other`, and every form names the same placeholders.
 */
type Tree = { [key: string]: string | Tree };

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every message as `a.b.c` → its text. */
export function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

/** The placeholders and tags of a message, sorted: `{{count, number}}` counts as `count`. */
export function placeholders(text: string): string[] {
  const names = [...text.matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => `{{${m[1]}}}`);
  const tags = [...text.matchAll(/<(\d+)>/g)].map((m) => `<${m[1]}>`);
  return [...new Set([...names, ...tags])].sort();
}

/** Messages by base key (plural forms together), each with its forms. */
function messages(tree: Tree): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, text] of flatten(tree)) {
    const base = key.replace(PLURAL, '');
    const form = PLURAL.exec(key)?.[1] ?? '';
    if (!out.has(base)) out.set(base, new Map());
    out.get(base)!.set(form, text);
  }
  return out;
}

/** What differs between the reference catalogue and another one, in words; empty when they match. */
export function compareCatalogues(reference: Tree, other: Tree, name: string): string[] {
  const problems: string[] = [];
  const ref = messages(reference);
  const oth = messages(other);
  for (const key of ref.keys()) if (!oth.has(key)) problems.push(`${name} lacks "${key}"`);
  for (const key of oth.keys()) if (!ref.has(key)) problems.push(`${name} has "${key}", which English lacks`);
  for (const [key, forms] of ref) {
    const theirs = oth.get(key);
    if (!theirs) continue;
    const plural = [...forms.keys()].some(Boolean);
    if (plural !== [...theirs.keys()].some(Boolean)) {
      problems.push(`"${key}" is plural in one catalogue only`);
      continue;
    }
    if (plural && !theirs.has('other')) problems.push(`${name} lacks "${key}_other"`);
    const want = placeholders([...forms.values()].join(' ')).join(' ');
    for (const [form, text] of theirs) {
      const got = placeholders(text).join(' ');
      if (got !== want)
        problems.push(`${name} "${form ? `${key}_${form}` : key}" has [${got}], English has [${want}]`);
    }
  }
  return problems;
}
