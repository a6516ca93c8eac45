/** The log tail of GET /admin/system/logs, filtered by level, refreshed while open. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
const NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

function pretty(line: string): { level: string; text: string } {
  try {
    const o = JSON.parse(line) as { level?: number; time?: number | string; msg?: string; service?: string };
    const t = o.time ? new Date(o.time).toISOString().slice(11, 19) : '';
    return {
      level: NAMES[o.level ?? 0] ?? 'info',
      text: `${t} ${o.service ? `[${o.service}] ` : ''}${o.msg ?? line}`,
    };
  } catch {
    return { level: 'info', text: line };
  }
}

export function LogsPage() {
  const { t } = useT();
  const [level, setLevel] = useState('info');
  const [tail, setTail] = useState(200);
  const logs = useQuery({
    queryKey: ['admin', 'logs', level, tail],
    queryFn: () =>
      api.get<{ lines: string[]; total: number; warning?: string }>(pathOf('adminLogs'), { level, tail }),
    refetchInterval: 5_000,
  });
  return (
    <>
      <h1>{t('admin.logs')}</h1>
      <div className="actions">
        <label>
          {t('admin.level')}
          <select value={level} onChange={(e) => setLevel(e.target.value)}>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {t('admin.andAbove', { level: l })}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('admin.lines')}
          <select value={tail} onChange={(e) => setTail(Number(e.target.value))}>
            {[100, 200, 500, 2000].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryState query={logs} isEmpty={(d) => !d.lines.length} empty={t('admin.noLines')}>
        {(d) => (
          <>
            {d.warning ? <p className="state">{d.warning}</p> : null}
            <ol className="log" data-testid="log-lines" aria-label={t('admin.logLines')}>
              {d.lines.map((l, i) => {
                const p = pretty(l);
                return (
                  <li key={i} className={`lvl-${p.level}`}>
                    <span className="lvl">{p.level}</span> {p.text}
                  </li>
                );
              })}
            </ol>
          </>
        )}
      </QueryState>
    </>
  );
}
