/**
 * Write rules for settings (spec 4.5, behaviour-notes §3.17): which settings the API may never
 * write, the value type each `ui.type` accepts, and the transforms of `rules` and
 * `profile.description`. Everything here runs before any write so a bad request changes nothing.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { renderRuleHtml as ruleHtml, sanitize as sanitizeDescription } from '@agora/common/content';
import { parseInput as parse } from '@agora/common/validation';

export interface SettingMeta {
  name: string;
  canEdit?: string | null;
  ui?: { type?: string | null } | null;
}

/** Read-only through the API: server-managed (`@private`) or secret (`redacted`) settings. */
export function isBlocked(s: SettingMeta): boolean {
  return s.canEdit === '@private' || s.ui?.type === 'redacted';
}

const TEXT_TYPES = new Set(['text', 'textarea', 'email', 'url', 'color', 'markdown', 'image', 'select']);
/** The path of the first key in a JSON value that starts with `$`, if any. */
function dollarKey(value: unknown, path: string[] = []): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = dollarKey(v, [...path, String(i)]);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.startsWith('$')) return [...path, k].join('.');
      const found = dollarKey(v, [...path, k]);
      if (found) return found;
    }
  }
  return undefined;
}

// Keys starting with `$` are operators to MongoDB (which refuses to store them) and Extended JSON
// markers to archives: a value holding one could be kept on SQLite and then never move to MongoDB.
const jsonValue = z
  .union([z.record(z.string(), z.unknown()), z.array(z.unknown())], {
    error: 'must be a JSON object or array',
  })
  .superRefine((value, ctx) => {
    const key = dollarKey(value);
    if (key) ctx.addIssue({ code: 'custom', message: `${key}: keys may not start with $` });
  });

// An entry is a string (its text) or `{ id?, text? }`; one without text is dropped (spec 4.5:
// normalised, not refused), one whose text or id has the wrong type is a 400 naming it.
const ruleInput = z.union([
  z.string().max(10_000),
  z.object({
    id: z.string().max(100).nullish(),
    text: z.string().max(10_000).nullish(),
  }),
]);
const rulesInput = z.array(ruleInput, { error: 'must be an array of rules' }).max(200);

export interface Rule {
  id: string;
  text: string;
  html: string;
}

const RULE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function normaliseRules(value: unknown, prefix: string): Rule[] {
  const rules = parse(rulesInput, value, prefix);
  const out: Rule[] = [];
  const ids = new Set<string>();
  for (const r of rules) {
    const entry = typeof r === 'string' ? { text: r, id: undefined } : r;
    const text = (entry.text ?? '').trim();
    if (!text) continue;
    // Ids are kept when they are plain short tokens (clients refer to them at /register) and unique.
    let id = entry.id && RULE_ID.test(entry.id) && !ids.has(entry.id) ? entry.id : '';
    while (!id || ids.has(id)) id = randomBytes(6).toString('base64url');
    ids.add(id);
    out.push({ id, text, html: ruleHtml(text) });
  }
  return out;
}

/** The value to store for `setting`, or a 400 naming the setting. */
export function prepareValue(setting: SettingMeta, value: unknown): unknown {
  const name = setting.name;
  if (name === 'rules') return normaliseRules(value, name);
  const type = setting.ui?.type ?? 'text';
  let out: unknown = value;
  if (type === 'boolean') out = parse(z.boolean(), value, name);
  else if (type === 'number') out = parse(z.number().finite(), value, name);
  else if (type === 'json') out = parse(jsonValue, value, name);
  else if (type === 'multiselect') out = parse(z.array(z.string().max(1000)).max(500), value, name);
  else if (TEXT_TYPES.has(type)) out = parse(z.string().max(100_000), value, name);
  if (name === 'profile') out = withSafeDescription(out, name);
  return out;
}

function withSafeDescription(value: unknown, prefix: string): unknown {
  const profile = parse(z.record(z.string(), z.unknown()), value, prefix);
  if (profile.description === undefined || profile.description === null) return profile;
  const description = parse(z.string().max(100_000), profile.description, `${prefix}.description`);
  return { ...profile, description: sanitizeDescription(description) };
}
