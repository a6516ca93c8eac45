/**
 * The language switch in the footer, beside the theme (ADR 0026): the browser's language or one
 * of the app's. The choice is kept in localStorage (`agora.language`) and shown at once, without
 * a reload. Each language is named in itself, marked with its `lang` for screen readers.
 */
import { useState } from 'react';
import {
  browserLanguage,
  chooseLanguage,
  LANGUAGES,
  storedLanguage,
  type Language,
  type LanguageChoice,
} from '../i18n/i18n';
import { useT } from '../i18n/use-t';

export function LanguageSwitch() {
  const { t } = useT();
  const [choice, setChoice] = useState<LanguageChoice>(storedLanguage);
  const browser = LANGUAGES[browserLanguage()];
  return (
    <label className="theme-switch">
      <span>{t('language.label')}</span>
      <select
        value={choice}
        onChange={(e) => {
          const next = e.target.value as LanguageChoice;
          setChoice(next);
          void chooseLanguage(next);
        }}
      >
        <option value="browser">{t('language.browser', { language: browser })}</option>
        {(Object.keys(LANGUAGES) as Language[]).map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
