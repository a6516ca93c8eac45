/** Notifications: the list (all or unread), mark read as they are opened, read all, dismiss. */
import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Collection, Notification } from '../api/types';
import { NotificationItem, type NotificationWire } from '../ui/notification-item';
import { ErrorNote, QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';

/** A notification's `href` as an in-app path (the server writes absolute URLs). */
export function appPath(href: string): string {
  try {
    const u = new URL(href, window.location.origin);
    return `${u.pathname}${u.search}`;
  } catch {
    return '/';
  }
}

export function NotificationsPage() {
  const { t } = useT();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = useQuery({
    queryKey: ['notifications', 'list', unreadOnly],
    queryFn: () =>
      api.get<Collection<NotificationWire>>(pathOf('notifications'), {
        limit: 50,
        ...(unreadOnly ? { unread: 'true' } : {}),
      }),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['notifications'] });
  const read = useMutation({
    mutationFn: (id: string) => api.post(pathOf('notificationRead', { notifId: id })),
    onSuccess: refresh,
  });
  const dismiss = useMutation({
    mutationFn: (id: string) => api.post(pathOf('notificationDismiss', { notifId: id })),
    onSuccess: refresh,
  });
  const readAll = useMutation({
    mutationFn: () => api.post(pathOf('notificationsReadAll')),
    onSuccess: refresh,
  });
  const open = async (n: Notification) => {
    if (!n.read) await read.mutateAsync(n.id);
    // A notification says something changed: what the app holds about it may be out of date.
    await qc.invalidateQueries({
      predicate: (q) => !['config', 'me', 'notifications'].includes(String(q.queryKey[0])),
    });
    await navigate({ href: appPath(n.href) });
  };
  return (
    <>
      <h1>{t('notifications.title')}</h1>
      <div className="actions">
        <label className="check">
          <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} />
          {t('notifications.unreadOnly')}
        </label>
        <button
          type="button"
          className="secondary"
          onClick={() => readAll.mutate()}
          disabled={readAll.isPending}
        >
          {t('notifications.readAll')}
        </button>
      </div>
      <ErrorNote error={read.error ?? dismiss.error ?? readAll.error} />
      <QueryState query={list} isEmpty={(d) => !d.orderedItems.length} empty={t('notifications.none')}>
        {(d) => (
          <ul className="list notifications">
            {d.orderedItems.map((n) => (
              <NotificationItem
                key={n.id}
                n={n}
                onOpen={() => void open(n)}
                onDismiss={() => dismiss.mutate(n.id)}
              />
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
