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

function software(s: KnownServer): string {
  if (s.software) return `${s.software.name} ${s.software.version}`;
  return s.nodeinfoError ? `unknown (${s.nodeinfoError})` : 'unknown';
}

function circuit(s: KnownServer): string {
  if (s.circuit.state === 'closed') return 'answering';
  if (s.circuit.state === 'half-open') return 'down, next delivery is a probe';
  return `down until ${when(s.circuit.until)}`;
}

function ServerRow({ server }: { server: KnownServer }) {
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
        Software: {software(server)}
        {server.compatible === false ? ' (does not speak this protocol: not polled)' : ''}
      </p>
      <p className="meta">
        Last seen: {server.lastSeenAt ? `${when(server.lastSeenAt)} (${server.lastSeenVia ?? ''})` : 'never'}{' '}
        · {circuit(server)} · {server.heldDeliveries} deliveries held · {server.deadDeliveries} given up
      </p>
      {server.blocked ? (
        <p>
          <strong>Blocked</strong> since {when(server.blockedAt)}
          {server.blockReason ? `: ${server.blockReason}` : ''} · {server.refusedInbound} requests refused{' '}
          <button type="button" onClick={() => toggle.mutate(false)} disabled={toggle.isPending}>
            Unblock
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
            Reason
            <input value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </label>
          <button type="submit" className="danger" disabled={toggle.isPending}>
            Block {server.domain}
          </button>
        </form>
      )}
      <ErrorNote error={toggle.error} title="Refused" />
    </li>
  );
}

export function ServersPage() {
  const servers = useQuery({
    queryKey: ['admin', 'servers'],
    queryFn: () => api.get<Collection<KnownServer>>(pathOf('adminServers'), { limit: 100 }),
  });
  return (
    <>
      <h1>Servers</h1>
      <p className="meta">
        Other servers this one has exchanged with. Blocking a domain hides what came from it and refuses
        everything to and from it until it is unblocked.
      </p>
      <QueryState query={servers} isEmpty={(d) => !d.orderedItems.length} empty="No other server yet.">
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
