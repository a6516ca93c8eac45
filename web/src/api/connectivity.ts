/**
 * Whether the app can reach the server: the browser's own `navigator.onLine` and the outcome of
 * the last request (a fetch that failed to connect means offline even when the browser thinks
 * otherwise). The offline banner (ui/offline.tsx) reads it.
 */
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let lastFetchFailed = false;

function emit() {
  for (const l of listeners) l();
}

/** Called by the API client after each request: true when the server answered. */
export function reportReachable(ok: boolean): void {
  if (lastFetchFailed === !ok) return;
  lastFetchFailed = !ok;
  emit();
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  const online = () => {
    // Back online: let the next request decide again.
    lastFetchFailed = false;
    fn();
  };
  window.addEventListener('online', online);
  window.addEventListener('offline', fn);
  return () => {
    listeners.delete(fn);
    window.removeEventListener('online', online);
    window.removeEventListener('offline', fn);
  };
}

const offlineNow = () => !navigator.onLine || lastFetchFailed;

export function useOffline(): boolean {
  return useSyncExternalStore(subscribe, offlineNow, () => false);
}
