/**
 * One notification: who (avatar and name), what happened in words, an excerpt of the object and,
 * for a reaction, its emoji. Unread ones look different and say so to screen readers.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Collection, Notification } from '../api/types';
import type { WithSource } from '../api/extra-types';
import { Avatar } from './post-card';
import { when } from './format';
import { t, useT } from '../i18n/use-t';

/** What the screens read of the wire notification beyond the generated type. */
export interface NotificationWire extends Notification {
  actorId?: string;
  actorName?: string;
  actorIcon?: string;
  objectId?: string;
  objectType?: string;
}

interface ObjectWire extends WithSource {
  title?: string | null;
  name?: string | null;
  content?: string | null;
}

const EXCERPT_CHARS = 120;

/** The object's title or text as plain words, cut to a line or two. */
export function excerptOf(o: ObjectWire): string {
  const raw = o.title || o.name || o.source?.content || (o.content ?? '').replace(/<[^>]*>/g, ' ');
  const text = raw.replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

/** The words for a notification; the feed digest says who posted instead of "new posts". */
export function describe(n: NotificationWire): string {
  const who = n.actorName || t('notifications.someone');
  if (n.type === 'new_post' && n.objectType !== 'Group') return t('notifications.digest', { name: who });
  return n.summary;
}

/** Types whose object is a post or a reply the recipient may read. */
const ABOUT_CONTENT = new Set(['reply', 'react', 'mention']);

function useExcerpt(n: NotificationWire) {
  const id = ABOUT_CONTENT.has(n.type) ? n.objectId : undefined;
  return useQuery({
    queryKey: ['notification-object', id],
    queryFn: () => api.get<ObjectWire>(pathOf('post', { id: id! })),
    enabled: !!id,
    staleTime: 60_000,
    retry: false,
  });
}

function useEmoji(n: NotificationWire) {
  const id = n.type === 'react' ? n.objectId : undefined;
  return useQuery({
    queryKey: ['notification-react', id, n.actorId],
    queryFn: async () => {
      const page = await api.get<Collection<{ actorId?: string; emoji?: string }>>(
        pathOf('postReacts', { id: id! }),
        {
          limit: 100,
        },
      );
      return page.orderedItems.find((r) => r.actorId === n.actorId)?.emoji ?? null;
    },
    enabled: !!id,
    staleTime: 60_000,
    retry: false,
  });
}

export function NotificationItem({
  n,
  onOpen,
  onDismiss,
}: {
  n: NotificationWire;
  onOpen: () => void;
  onDismiss: () => void;
}) {
  useT();
  const excerpt = useExcerpt(n).data;
  const emoji = useEmoji(n).data;
  return (
    <li className={`notification ${n.read ? 'read' : 'unread'}`} data-testid="notification">
      <Avatar src={n.actorIcon} name={n.actorName} />
      <div className="notification-body">
        <button type="button" className="link-button notification-open" onClick={onOpen}>
          {n.read ? null : <span className="sr-only">{t('notifications.unreadPrefix')}</span>}
          {emoji ? <span className="notification-emoji">{emoji} </span> : null}
          {describe(n)}
        </button>
        {excerpt ? <q className="notification-excerpt">{excerptOf(excerpt)}</q> : null}
        <span className="meta">
          <time dateTime={n.createdAt}>{when(n.createdAt)}</time>
          {n.read ? null : (
            <span className="unread-tag" aria-hidden="true">
              {' '}
              · {t('notifications.unread')}
            </span>
          )}
        </span>
      </div>
      <button type="button" className="link-button" onClick={onDismiss}>
        {t('notifications.dismiss')}
      </button>
    </li>
  );
}
