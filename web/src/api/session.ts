/** The session token, kept in localStorage so a reload (or a deep link) stays signed in. */
const KEY = 'agora.token';
const listeners = new Set<() => void>();

export function getToken(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  if ((token || null) === getToken()) return;
  if (token) localStorage.setItem(KEY, token);
  else localStorage.removeItem(KEY);
  for (const l of listeners) l();
}

export function onTokenChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
