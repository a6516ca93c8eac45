/**
 * Small display helpers, in the app's language (ADR 0026): dates and numbers by Intl in that
 * language. A component that shows them calls `useT()` so that it renders again on a switch.
 */
import { i18next } from '../i18n/i18n';
import { t } from '../i18n/use-t';

export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(i18next.language, { dateStyle: 'medium', timeStyle: 'short' });
}

export function handle(id: string | null | undefined): string {
  return id ?? '';
}

/** The audience of an object in words. */
export function audienceLabel(to: string | undefined, domain: string | undefined): string {
  if (!to) return '';
  if (to === '@public') return t('common.public');
  if (to === '@server' || (domain && to === `@${domain}`)) return t('common.thisServer');
  if (to.startsWith('circle:')) return t('common.circle');
  if (to.startsWith('group:')) return t('common.group');
  if (to.startsWith('@')) return t('common.onlyMe');
  // Another server's audience (a URL): words, never the raw address.
  return t('common.selectedPeople');
}

export function bytes(n: number | undefined): string {
  if (n === undefined) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = u ? 1 : 0;
  const number = new Intl.NumberFormat(i18next.language, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(v);
  return `${number} ${units[u]}`;
}

/** "1 member", "3 members" (in the language's plural forms). */
export function memberCount(n: number | null | undefined): string {
  return t('common.members', { count: n ?? 0 });
}
