/** Overview: the counts and the process of GET /admin/system. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { SystemStats } from '../api/types';
import { bytes } from '../ui/format';
import { QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';

export function OverviewPage() {
  const { t } = useT();
  const stats = useQuery({
    queryKey: ['admin', 'system'],
    queryFn: () => api.get<SystemStats>(pathOf('adminSystem')),
    refetchInterval: 30_000,
  });
  return (
    <>
      <h1>{t('admin.overview')}</h1>
      <QueryState query={stats}>
        {(s) => (
          <>
            <dl className="stats" data-testid="stats">
              {Object.entries(s.counts).map(([k, v]) => (
                <div key={k}>
                  <dt>{k.replace(/([A-Z])/g, ' $1').toLowerCase()}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
            <h2>{t('admin.process')}</h2>
            <dl className="stats">
              <div>
                <dt>{t('admin.uptime')}</dt>
                <dd>{t('admin.minutes', { count: Math.round(s.process.uptime / 60) })}</dd>
              </div>
              <div>
                <dt>{t('admin.memory')}</dt>
                <dd>{bytes(s.process.memory.rss)}</dd>
              </div>
              <div>
                <dt>{t('admin.node')}</dt>
                <dd>{s.process.node}</dd>
              </div>
              {s.disk?.free !== undefined ? (
                <div>
                  <dt>{t('admin.diskFree')}</dt>
                  <dd>{bytes(s.disk.free)}</dd>
                </div>
              ) : null}
            </dl>
          </>
        )}
      </QueryState>
    </>
  );
}
