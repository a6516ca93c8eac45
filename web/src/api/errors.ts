/**
 * The server's refusals in words for people: `object.password.current: does not match` becomes
 * "Current password: does not match." A 429 says when to try again; a request that never got an
 * answer says so and what to do.
 */

/** Field names as the screens label them (the last one or two segments of the server's path). */
const FIELD_NAMES: Record<string, string> = {
  'password.current': 'Current password',
  'password.new': 'New password',
  source: 'Post text',
  content: 'Text',
  to: 'Audience',
  href: 'Link',
  target: 'Item',
  ref: 'Item',
  description: 'About you',
  name: 'Name',
  title: 'Title',
  email: 'E-mail',
  username: 'Username',
  password: 'Password',
  reason: 'Reason',
  'reason.code': 'Reason',
  body: 'Request',
  object: 'Request',
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
  return FIELD_NAMES[two] ?? FIELD_NAMES[one] ?? words(one);
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
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const min = Math.ceil(seconds / 60);
  return `${min} minute${min === 1 ? '' : 's'}`;
}

export const NETWORK_MESSAGE = 'The server could not be reached. Check your connection, then retry.';
export const TIMEOUT_MESSAGE = 'The server did not answer in time. Check your connection, then retry.';
