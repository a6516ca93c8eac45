/** Server state shared by many screens: the session, the server config, outbox writes. */
import { useSyncExternalStore } from 'react';
import {
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { api } from './client';
import { pathOf } from './routes';
import { getToken, onTokenChange } from './session';
import type { OutboxResult, ServerConfig, SessionUser } from './types';

export function useToken(): string | null {
  return useSyncExternalStore(onTokenChange, getToken, () => null);
}

export function useConfig() {
  return useQuery({
    queryKey: ['config'],
    queryFn: () => api.get<ServerConfig>(pathOf('config')),
    staleTime: 5 * 60_000,
  });
}

/**
 * A new or removed token: every cached answer was for someone else. Reset (not remove) them, so
 * the screens on show keep their observers and ask again as the new person. Called once, at start.
 */
export function forgetAnswersOnTokenChange(qc: QueryClient): () => void {
  return onTokenChange(() => {
    void qc.resetQueries({ predicate: (q) => q.queryKey[0] !== 'config' });
  });
}

/** The signed-in user, or null when signed out. */
export function useMe() {
  // The cache is reset when the token changes (forgetAnswersOnTokenChange, main.tsx), once for the
  // whole app: an effect here would run on every mount of every screen that reads the session.
  const token = useToken();
  return useQuery({
    queryKey: ['me', token],
    queryFn: async () => (await api.get<{ user: SessionUser }>(pathOf('me'))).user,
    enabled: Boolean(token),
    staleTime: 60_000,
  });
}

/** The user of a screen that requires one (the route guard has already checked the session). */
export function useSessionUser(): SessionUser | undefined {
  return useMe().data;
}

export type Activity = Record<string, unknown> & { type: string };

/** POST /outbox, then invalidate what the activity changed. */
export function useOutbox<T = Record<string, unknown>>(invalidate: QueryKey[] = []) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (activity: Activity) => api.post<OutboxResult<T>>(pathOf('outbox'), activity),
    onSuccess: async () => {
      await Promise.all(invalidate.map((queryKey) => qc.invalidateQueries({ queryKey })));
    },
  });
}
