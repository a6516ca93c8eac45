/** The languages the app has a catalogue for, each named in itself (as a language menu shows it). */
export const LANGUAGES = { en: 'English', de: 'Deutsch' } as const;
export type Language = keyof typeof LANGUAGES;
