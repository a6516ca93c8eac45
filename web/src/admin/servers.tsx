/**
 * Known servers (GET /admin/servers): who each is, whether it answers (last contact, the circuit
 * breaker), what waits for it, and the switch to block or unblock its domain.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Collection, KnownServer } from '../api/types';
import { when } from '../ui/format';
import { ErrorNote, QueryState } from '../ui/states';
import { t, useT } from '../i18n/use-t';
import { Rich } from '../i18n/rich';

function software(s: KnownServer): string {
  if (s.software) return `${s.software.name} ${s.software.version}`;
  return s.nodeinfoError ? t('admin.unknownBecause', { reason: s.nodeinfoError }) : t('admin.unknown');
}

function circuit(s: KnownServer): string {
  if (s.circuit.state === 'closed') return t('admin.answering');
  if (s.circuit.state === 'half-open') return t('admin.probing');
  return t('admin.downUntil', { date: when(s.circuit.until) });
}

function ServerRow({ server }: { server: KnownServer }) {
  useT();
  const qc = useQueryClient();
  const [reason, setReason] = useState('');
  const toggle = useMutation({
    mutationFn: (blocked: boolean) =>
      api.patch(pathOf('adminServer', { domain: server.domain }), {
        blocked,
        ...(blocked && reason ? { reason } : {}),
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'servers'] }),
  });
  return (
    <li className="card" data-testid="server">
      <h2>{server.domain}</h2>
      <p>
        {t('admin.software', { software: software(server) })}
        {server.compatible === false ? t('admin.notPolled') : ''}
      </p>
      <p className="meta">
        {t('admin.lastSeen', {
          when: server.lastSeenAt
            ? `${when(server.lastSeenAt)} (${server.lastSeenVia ?? ''})`
            : t('admin.never'),
        })}{' '}
        · {circuit(server)} · {t('admin.held', { count: server.heldDeliveries })} ·{' '}
        {t('admin.givenUp', { count: server.deadDeliveries })}
      </p>
      {server.blocked ? (
        <p>
          <Rich text={t('admin.blockedSince', { date: when(server.blockedAt) })} parts={[<strong />]} />
          {server.blockReason ? `: ${server.blockReason}` : ''} ·{' '}
          {t('admin.refusedInbound', { count: server.refusedInbound })}{' '}
          <button type="button" onClick={() => toggle.mutate(false)} disabled={toggle.isPending}>
            {t('admin.unblock')}
          </button>
        </p>
      ) : (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            toggle.mutate(true);
          }}
        >
          <label>
            {t('admin.reason')}
            <input value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </label>
          <button type="submit" className="danger" disabled={toggle.isPending}>
            {t('admin.block', { domain: server.domain })}
          </button>
        </form>
      )}
      <ErrorNote error={toggle.error} title={t('admin.refused')} />
    </li>
  );
}

export function ServersPage() {
  useT();
  const servers = useQuery({
    queryKey: ['admin', 'servers'],
    queryFn: () => api.get<Collection<KnownServer>>(pathOf('adminServers'), { limit: 100 }),
  });
  return (
    <>
      <h1>{t('admin.servers')}</h1>
      <p className="meta">{t('admin.serversText')}</p>
      <QueryState query={servers} isEmpty={(d) => !d.orderedItems.length} empty={t('admin.noServers')}>
        {(d) => (
          <ul className="plain">
            {d.orderedItems.map((s) => (
              <ServerRow key={s.domain} server={s} />
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
