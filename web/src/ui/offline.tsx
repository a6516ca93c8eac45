/** The offline banner: shown while the browser is offline or the server cannot be reached. */
import { useQueryClient } from '@tanstack/react-query';
import { useOffline } from '../api/connectivity';
import { useT } from '../i18n/use-t';

export function OfflineBanner() {
  const offline = useOffline();
  const qc = useQueryClient();
  const { t } = useT();
  if (!offline) return null;
  return (
    <div className="offline" role="status" data-testid="offline-banner">
      <span>{t('layout.offline')}</span>
      <button type="button" className="secondary" onClick={() => void qc.refetchQueries({ type: 'active' })}>
        {t('common.tryAgain')}
      </button>
    </div>
  );
}
