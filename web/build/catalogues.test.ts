import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareCatalogues, flatten, placeholders } from './catalogues';
import { en } from '../src/i18n/locales/en';
import { de } from '../src/i18n/locales/de';
import { LANGUAGES } from '../src/i18n/languages';

const SRC = join(__dirname, '..', 'src');

test('every language has exactly the English messages, with the same placeholders', () => {
  expect(Object.keys(LANGUAGES).sort()).toEqual(['de', 'en']);
  expect(compareCatalogues(en, de, 'de')).toEqual([]);
});

test('a missing or extra key, a placeholder that differs and a lost plural form are each found', () => {
  const english = { a: { hi: 'Hi {{name}}', n_one: '{{count}} post', n_other: '{{count}} posts' }, b: 'B' };
  expect(
    compareCatalogues(
      english,
      { a: { hi: 'Hallo {{name}}', n_one: '{{count}} Beitrag', n_other: '{{count}} Beiträge' }, b: 'B' },
      'de',
    ),
  ).toEqual([]);
  expect(
    compareCatalogues(
      english,
      { a: { hi: 'Hallo {{name}}', n_one: '{{count}} Beitrag', n_other: '{{count}} Beiträge' } },
      'de',
    ),
  ).toEqual(['de lacks "b"']);
  expect(
    compareCatalogues(
      english,
      {
        a: { hi: 'Hallo {{name}}', n_one: '{{count}} Beitrag', n_other: '{{count}} Beiträge' },
        b: 'B',
        c: 'C',
      },
      'de',
    ),
  ).toEqual(['de has "c", which English lacks']);
  expect(
    compareCatalogues(
      english,
      { a: { hi: 'Hallo {{nom}}', n_one: '{{count}} Beitrag', n_other: '{{count}} Beiträge' }, b: 'B' },
      'de',
    ),
  ).toEqual(['de "a.hi" has [{{nom}}], English has [{{name}}]']);
  expect(
    compareCatalogues(english, { a: { hi: 'Hallo {{name}}', n_one: '{{count}} Beitrag' }, b: 'B' }, 'de'),
  ).toEqual(['de lacks "a.n_other"']);
  // A language with more plural forms (Polish: one, few, many, other) still matches.
  expect(
    compareCatalogues(
      english,
      {
        a: {
          hi: '{{name}}',
          n_one: '{{count}}',
          n_few: '{{count}}',
          n_many: '{{count}}',
          n_other: '{{count}}',
        },
        b: 'B',
      },
      'pl',
    ),
  ).toEqual([]);
});

test('placeholders count formatted values and element tags', () => {
  expect(placeholders('Show {{count, number}} new posts by <0>{{name}}</0>')).toEqual([
    '<0>',
    '{{count}}',
    '{{name}}',
  ]);
});

/**
 * Every key the app's source names, outside the catalogues: the first argument of `t('…')`, and
 * any quoted `section.key` whose section is one of the catalogue's (the tables of keys that
 * screens translate later: tabs, shortcuts, field names).
 */
function usedKeys(dir: string, sections: string[]): string[] {
  const keys: string[] = [];
  const quoted = new RegExp(`'((?:${sections.join('|')})\\.[\\w.]+)'`, 'g');
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'locales') keys.push(...usedKeys(path, sections));
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      const code = readFileSync(path, 'utf8');
      keys.push(...[...code.matchAll(/\bt\(\s*'([\w.]+)'/g)].map((m) => m[1]!));
      keys.push(...[...code.matchAll(quoted)].map((m) => m[1]!));
    }
  }
  return keys;
}

test('every key the screens ask for is in the English catalogue', () => {
  const messages = new Set([...flatten(en).keys()].map((k) => k.replace(/_(one|other)$/, '')));
  const used = [...new Set(usedKeys(SRC, Object.keys(en)))];
  // The tables are seen: shortcuts, timelines' tabs, field names, kinds, admin sections.
  for (const key of [
    'shortcuts.home',
    'home.following',
    'errors.fields.currentPassword',
    'discover.kinds.item',
    'admin.flags',
  ])
    expect(used).toContain(key);
  expect(used.filter((k) => !messages.has(k))).toEqual([]);
});
