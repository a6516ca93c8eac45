/** Overview: the counts and the process of GET /admin/system. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { SystemStats } from '../api/types';
import { bytes } from '../ui/format';
import { QueryState } from '../ui/states';

export function OverviewPage() {
  const stats = useQuery({
    queryKey: ['admin', 'system'],
    queryFn: () => api.get<SystemStats>(pathOf('adminSystem')),
    refetchInterval: 30_000,
  });
  return (
    <>
      <h1>Overview</h1>
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
            <h2>Process</h2>
            <dl className="stats">
              <div>
                <dt>uptime</dt>
                <dd>{Math.round(s.process.uptime / 60)} min</dd>
              </div>
              <div>
                <dt>memory (RSS)</dt>
                <dd>{bytes(s.process.memory.rss)}</dd>
              </div>
              <div>
                <dt>node</dt>
                <dd>{s.process.node}</dd>
              </div>
              {s.disk?.free !== undefined ? (
                <div>
                  <dt>disk free</dt>
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
