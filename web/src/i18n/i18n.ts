/**
 * Translations (ADR 0026): i18next with one catalogue per language under `locales/`. Each
 * catalogue is a lazy chunk (outside the first-load budget): the person's language is loaded
 * before the first render, another one when they switch to it; English is the fallback for a key
 * a catalogue lacks, so it is always loaded too. The language is the person's choice in the app
 * (`agora.language` in localStorage, beside the theme), else the first of the browser's
 * `navigator.languages` that has a catalogue, else English.
 */
import i18next from 'i18next';
import { LANGUAGES, type Language } from './languages';

export { LANGUAGES, type Language };
export type LanguageChoice = Language | 'browser';
export const LANGUAGE_KEY = 'agora.language';

const LOADERS: Record<Language, () => Promise<Record<string, unknown>>> = {
  en: () => import('./locales/en').then((m) => m.en),
  de: () => import('./locales/de').then((m) => m.de),
};

const isLanguage = (v: string | null | undefined): v is Language => !!v && Object.hasOwn(LANGUAGES, v);

export function storedLanguage(): LanguageChoice {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(v) ? v : 'browser';
  } catch {
    return 'browser';
  }
}

/** The first of the browser's languages with a catalogue (`de-AT` counts as `de`). */
export function browserLanguage(): Language {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

const resolve = (choice: LanguageChoice): Language => (choice === 'browser' ? browserLanguage() : choice);

async function load(lang: Language): Promise<void> {
  if (i18next.hasResourceBundle(lang, 'translation')) return;
  i18next.addResourceBundle(lang, 'translation', await LOADERS[lang]());
}

/** The language last asked for: a slower catalogue must not win over a later choice. */
let wanted: Language | undefined;

/** Switches the app to `lang` (loading its catalogue first) and marks `<html lang>`. */
async function show(lang: Language): Promise<void> {
  wanted = lang;
  try {
    await load(lang);
  } catch {
    // The chunk did not load (offline): stay in the language shown until now.
    return;
  }
  if (wanted !== lang) return;
  await i18next.changeLanguage(lang);
  document.documentElement.lang = lang;
}

/** Starts i18next in the person's language; resolves when the first render can happen. */
export async function startI18n(): Promise<void> {
  await i18next.init({
    resources: {},
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: Object.keys(LANGUAGES),
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  const lang = resolve(storedLanguage());
  // English first: the fallback must be there before anything is shown (a failure here is an
  // app that cannot start, like a failed entry chunk).
  await Promise.all([load('en'), lang === 'en' ? null : load(lang).catch(() => undefined)]);
  await show(lang);
  window.addEventListener('languagechange', () => {
    if (storedLanguage() === 'browser') void show(browserLanguage());
  });
  window.addEventListener('storage', (e) => {
    if (e.key === LANGUAGE_KEY) void show(resolve(storedLanguage()));
  });
}

/** Keeps the person's choice (`browser` follows the browser again) and shows it at once. */
export function chooseLanguage(choice: LanguageChoice): Promise<void> {
  try {
    if (choice === 'browser') localStorage.removeItem(LANGUAGE_KEY);
    else localStorage.setItem(LANGUAGE_KEY, choice);
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  return show(resolve(choice));
}

export { i18next };
