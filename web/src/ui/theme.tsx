/**
 * Light and dark themes. The person's choice (`system`, `light` or `dark`) is kept in
 * localStorage; `system` follows `prefers-color-scheme` and changes with it. The resolved theme
 * is `data-theme` on `<html>`, which the stylesheet's colour variables read.
 */
import { useEffect, useState } from 'react';
import { useT } from '../i18n/use-t';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_KEY = 'agora.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function storedChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

function apply(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && window.matchMedia(DARK_QUERY).matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** Applies the stored choice now and follows the system preference while it is `system`. */
export function startTheme(): void {
  apply(storedChoice());
  window.matchMedia(DARK_QUERY).addEventListener('change', () => apply(storedChoice()));
  // Another tab changed the choice.
  window.addEventListener('storage', (e) => {
    if (e.key === THEME_KEY) apply(storedChoice());
  });
}

/** The theme switch in the header: System, Light or Dark. */
export function ThemeSwitch() {
  const { t } = useT();
  const [choice, setChoice] = useState<ThemeChoice>(storedChoice);
  useEffect(() => {
    try {
      if (choice === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, choice);
    } catch {
      // Storage refused (private mode): the choice lasts for this page only.
    }
    apply(choice);
  }, [choice]);
  return (
    <label className="theme-switch">
      <span>{t('theme.label')}</span>
      <select value={choice} onChange={(e) => setChoice(e.target.value as ThemeChoice)}>
        <option value="system">{t('theme.system')}</option>
        <option value="light">{t('theme.light')}</option>
        <option value="dark">{t('theme.dark')}</option>
      </select>
    </label>
  );
}
