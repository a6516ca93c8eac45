/**
 * `useT()`: the translate function for a component, which renders again when the language
 * changes. Formatting of dates and numbers follows the same language (`format.ts`).
 */
import { useSyncExternalStore } from 'react';
import { i18next } from './i18n';

function subscribe(onChange: () => void): () => void {
  i18next.on('languageChanged', onChange);
  return () => i18next.off('languageChanged', onChange);
}
const current = () => i18next.language;

export type TFunction = typeof i18next.t;

export function useT(): { t: TFunction; lang: string } {
  const lang = useSyncExternalStore(subscribe, current);
  return { t: i18next.t, lang };
}

/** The translate function outside components (messages built in event handlers). */
export const t: TFunction = ((...args: Parameters<TFunction>) => i18next.t(...args)) as TFunction;
