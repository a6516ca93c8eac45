/** The flag queue: open reports, resolved or dismissed with a note. */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Collection, Flag } from '../api/types';
import { when } from '../ui/format';
import { ErrorNote, QueryState } from '../ui/states';

function targetLink(f: Flag) {
  const t = f.target ?? '';
  if (t.startsWith('post:'))
    return (
      <Link to="/posts/$id" params={{ id: t }}>
        {t}
      </Link>
    );
  if (t.startsWith('@'))
    return (
      <Link to="/users/$id" params={{ id: t }}>
        {t}
      </Link>
    );
  return <span>{t}</span>;
}

function reasonOf(f: Flag): string {
  if (typeof f.reason === 'string') return f.reason;
  return f.reason?.label ?? f.reason?.code ?? '';
}

function FlagRow({ flag }: { flag: Flag }) {
  const qc = useQueryClient();
  const [notes, setNotes] = useState(flag.notes ?? '');
  const close = useMutation({
    mutationFn: (status: 'resolved' | 'dismissed') =>
      api.patch(pathOf('adminFlag', { id: flag.id }), { status, ...(notes ? { notes } : {}) }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'flags'] }),
  });
  return (
    <li className="card" data-testid="flag">
      <p>
        <strong>{reasonOf(flag)}</strong> · {flag.targetType} {targetLink(flag)}
      </p>
      <p className="meta">
        Reported by {flag.actorId} · {when(flag.createdAt)} · {flag.status}
      </p>
      {flag.status === 'open' ? (
        <form className="inline-form" onSubmit={(e) => e.preventDefault()}>
          <label>
            Notes
            <input value={notes} maxLength={2000} onChange={(e) => setNotes(e.target.value)} />
          </label>
          <button type="button" onClick={() => close.mutate('resolved')} disabled={close.isPending}>
            Resolve
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => close.mutate('dismissed')}
            disabled={close.isPending}
          >
            Dismiss
          </button>
          <ErrorNote error={close.error} title="Refused" />
        </form>
      ) : flag.notes ? (
        <p>Notes: {flag.notes}</p>
      ) : null}
    </li>
  );
}

export function FlagsPage() {
  const [status, setStatus] = useState('open');
  const flags = useQuery({
    queryKey: ['admin', 'flags', status],
    queryFn: () => api.get<Collection<Flag>>(pathOf('adminFlags'), { status, limit: 50 }),
  });
  return (
    <>
      <h1>Flags</h1>
      <label>
        Show
        <select value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="open">Open</option>
          <option value="resolved">Resolved</option>
          <option value="dismissed">Dismissed</option>
          <option value="all">All</option>
        </select>
      </label>
      <QueryState query={flags} isEmpty={(d) => !d.orderedItems.length} empty="The queue is empty.">
        {(d) => (
          <ul className="plain">
            {d.orderedItems.map((f) => (
              <FlagRow key={f.id} flag={f} />
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
