/** Loading, empty and error states, the same on every screen. An error always offers a way on. */
import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { useT } from '../i18n/use-t';

export function Loading({ label }: { label?: string }) {
  const { t } = useT();
  return (
    <p className="state" role="status" aria-live="polite">
      {label ?? t('common.loading')}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

/** A refusal or a failure in words, with a Retry button when the action can be tried again. */
export function ErrorNote({
  error,
  title,
  retry,
}: {
  error: unknown;
  title?: string;
  retry?: (() => unknown) | undefined;
}) {
  const { t } = useT();
  if (!error) return null;
  return (
    <div className="error" role="alert">
      <span>
        {title ? `${title}: ` : ''}
        {errorMessage(error)}
      </span>
      {retry ? (
        <button type="button" className="secondary" onClick={() => void retry()}>
          {t('common.retry')}
        </button>
      ) : null}
    </div>
  );
}

/** The three states of a query, then the content. */
export function QueryState<T>({
  query,
  empty,
  isEmpty,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined; refetch?: () => unknown };
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <ErrorNote error={query.error} retry={query.refetch} />;
  if (query.isPending || query.data === undefined) return <Loading />;
  if (empty && isEmpty?.(query.data)) return <Empty>{empty}</Empty>;
  return <>{children(query.data)}</>;
}
