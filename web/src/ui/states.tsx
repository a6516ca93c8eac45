/** Loading, empty and error states, the same on every screen. */
import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="state" role="status" aria-live="polite">
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {title ? `${title}: ` : ''}
      {errorMessage(error)}
    </p>
  );
}

/** The three states of a query, then the content. */
export function QueryState<T>({
  query,
  empty,
  isEmpty,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined };
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <ErrorNote error={query.error} />;
  if (query.isPending || query.data === undefined) return <Loading />;
  if (empty && isEmpty?.(query.data)) return <Empty>{empty}</Empty>;
  return <>{children(query.data)}</>;
}
