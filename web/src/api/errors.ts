/**
 * The server's refusals in words for people: `object.password.current: does not match` becomes
 * "Current password: does not match." A 429 says when to try again; a request that never got an
 * answer says so and what to do.
 */
import { t } from '../i18n/use-t';

/**
 * Field names as the screens label them (the last one or two segments of the server's path), by
 * their catalogue key. The server's own words stay as it wrote them.
 */
const FIELD_NAMES: Record<string, string> = {
  'password.current': 'errors.fields.currentPassword',
  'password.new': 'errors.fields.newPassword',
  source: 'errors.fields.source',
  content: 'errors.fields.content',
  to: 'errors.fields.to',
  href: 'errors.fields.href',
  target: 'errors.fields.target',
  ref: 'errors.fields.target',
  description: 'errors.fields.description',
  name: 'errors.fields.name',
  title: 'errors.fields.title',
  email: 'errors.fields.email',
  username: 'errors.fields.username',
  password: 'errors.fields.password',
  reason: 'errors.fields.reason',
  'reason.code': 'errors.fields.reason',
  body: 'errors.fields.request',
  object: 'errors.fields.request',
  contentWarning: 'errors.fields.contentWarning',
};

function words(segment: string): string {
  const spaced = segment
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The label of a server path such as `object.profile.description` or `object.password.current`. */
export function fieldLabel(path: string): string {
  const parts = path.split('.').filter((p) => p && !/^\d+$/.test(p));
  const two = parts.slice(-2).join('.');
  const one = parts[parts.length - 1] ?? path;
  const key = FIELD_NAMES[two] ?? FIELD_NAMES[one];
  return key ? t(key) : words(one);
}

const sentence = (s: string, capital = true) => {
  const t = s.trim();
  if (!t) return t;
  const up = capital ? t.charAt(0).toUpperCase() + t.slice(1) : t;
  return /[.!?…]$/.test(up) ? up : `${up}.`;
};

/** A server message (`path: what is wrong`) as a sentence naming the field. */
export function humanize(message: string): string {
  const m = /^([A-Za-z][\w]*(?:\.[\w]+)*): (.+)$/s.exec(message);
  if (!m) return sentence(message);
  return `${fieldLabel(m[1]!)}: ${sentence(m[2]!, false)}`;
}

/** Seconds as "12 seconds" or "3 minutes". */
export function waitText(seconds: number): string {
  if (seconds < 90) return t('errors.seconds', { count: seconds });
  return t('errors.minutes', { count: Math.ceil(seconds / 60) });
}

/** A request that never got an answer, in the language shown when it failed. */
export const networkMessage = () => t('errors.network');
export const timeoutMessage = () => t('errors.timeout');
