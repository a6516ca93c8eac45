/** The offline banner: shown while the browser is offline or the server cannot be reached. */
import { useQueryClient } from '@tanstack/react-query';
import { useOffline } from '../api/connectivity';

export function OfflineBanner() {
  const offline = useOffline();
  const qc = useQueryClient();
  if (!offline) return null;
  return (
    <div className="offline" role="status" data-testid="offline-banner">
      <span>You are offline or the server cannot be reached. What you write is kept on this device.</span>
      <button type="button" className="secondary" onClick={() => void qc.refetchQueries({ type: 'active' })}>
        Try again
      </button>
    </div>
  );
}
