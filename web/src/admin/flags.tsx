/**
 * The flag queue: reports of one object grouped on one card, with an excerpt of the reported
 * post; the admin resolves or dismisses them all with a note, or acts from the card: removes the
 * post (soft delete, restorable under Content) or suspends its author (the account is deactivated,
 * restorable under Users). Each action resolves the group's reports with the note.
 */
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { contentPath, pathOf } from '../api/routes';
import type { Collection, Flag } from '../api/types';
import { when } from '../ui/format';
import { ErrorNote, QueryState } from '../ui/states';
import { ObjectLink } from '../pages/discover';
import { useT } from '../i18n/use-t';

function reasonOf(f: Flag): string {
  if (typeof f.reason === 'string') return f.reason;
  return f.reason?.label ?? f.reason?.code ?? '';
}

/** The reported object in words: a post's excerpt and author, a user's handle. */
/** A post as the admin content API returns it. */
interface StoredPost {
  id: string;
  title?: string;
  summary?: string;
  actorId?: string;
  actor?: { id?: string; name?: string } | null;
}

function TargetSummary({ target, post }: { target: string; post: StoredPost | undefined }) {
  const { t } = useT();
  if (target.startsWith('@'))
    return (
      <Link to="/users/$id" params={{ id: target }}>
        {t('admin.theAccount', { id: target })}
      </Link>
    );
  // Another kind (a reply, a group, a page…): what it is, never its raw id.
  if (!target.startsWith('post:')) return <ObjectLink item={{ id: target }} />;
  if (!post) return <span>{t('admin.aPost')}</span>;
  return (
    <>
      <Link to="/posts/$id" params={{ id: target }}>
        {post.title || t('admin.aPost')}
      </Link>{' '}
      {t('admin.by', { name: post.actor?.name || post.actorId || t('admin.someone') })}
      {post.summary ? <blockquote data-testid="flag-excerpt">{post.summary}</blockquote> : null}
    </>
  );
}

type Action = 'resolved' | 'dismissed' | 'remove' | 'suspend';

function FlagGroup({ target, flags }: { target: string; flags: Flag[] }) {
  const { t } = useT();
  const qc = useQueryClient();
  const [notes, setNotes] = useState('');
  const [confirm, setConfirm] = useState<'remove' | 'suspend' | null>(null);
  const isPost = target.startsWith('post:');
  const post = useQuery({
    queryKey: ['admin', 'flag-target', target],
    queryFn: async () => {
      // The admin detail (`{ post }`): the stored record, whose author is `actor` / `actorId`.
      const out = await api.get<{ post?: StoredPost }>(contentPath('posts', target));
      return out.post;
    },
    enabled: isPost,
    retry: false,
  });
  const open = flags.filter((f) => f.status === 'open');
  const author = post.data?.actorId ?? post.data?.actor?.id ?? (target.startsWith('@') ? target : null);
  const act = useMutation({
    mutationFn: async (action: Action) => {
      if (action === 'remove') await api.del(contentPath('posts', target));
      if (action === 'suspend' && author) await api.del(pathOf('adminUser', { id: author }));
      const status = action === 'dismissed' ? 'dismissed' : 'resolved';
      const done =
        action === 'remove' ? t('admin.postRemoved') : action === 'suspend' ? t('admin.authorSuspended') : '';
      const note = [done, notes.trim()].filter(Boolean).join(' ');
      for (const f of open)
        await api.patch(pathOf('adminFlag', { id: f.id }), { status, ...(note ? { notes: note } : {}) });
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'flags'] }),
  });
  const run = (action: Action) => {
    setConfirm(null);
    act.mutate(action);
  };
  return (
    <li className="card" data-testid="flag">
      <p>
        <strong>{t('admin.reports', { count: flags.length })}</strong> ·{' '}
        <TargetSummary target={target} post={post.data} />
      </p>
      <ul className="plain">
        {flags.map((f) => (
          <li key={f.id} className="meta">
            {t('admin.reportedBy', {
              reason: reasonOf(f),
              actor: f.actorId,
              date: when(f.createdAt),
              status: f.status,
            })}
            {f.notes ? t('admin.flagNotes', { notes: f.notes }) : ''}
          </li>
        ))}
      </ul>
      {open.length ? (
        <form className="inline-form" onSubmit={(e) => e.preventDefault()}>
          <label>
            {t('admin.notes')}
            <input value={notes} maxLength={1500} onChange={(e) => setNotes(e.target.value)} />
          </label>
          <button type="button" onClick={() => run('resolved')} disabled={act.isPending}>
            {t('admin.resolve')}
          </button>{' '}
          <button
            type="button"
            className="secondary"
            onClick={() => run('dismissed')}
            disabled={act.isPending}
          >
            {t('admin.dismiss')}
          </button>{' '}
          {isPost && post.data ? (
            <button type="button" className="danger" onClick={() => setConfirm('remove')}>
              {t('admin.removePost')}
            </button>
          ) : null}{' '}
          {author ? (
            <button type="button" className="danger" onClick={() => setConfirm('suspend')}>
              {t('admin.suspendAuthor')}
            </button>
          ) : null}
          {confirm ? (
            <div
              role="group"
              aria-label={confirm === 'remove' ? t('admin.removePostQ') : t('admin.suspendAuthorQ')}
              className="confirm"
            >
              <p>
                {confirm === 'remove'
                  ? t('admin.confirmRemove')
                  : t('admin.confirmSuspend', { author: author ?? '' })}
              </p>
              <button type="button" className="danger" onClick={() => run(confirm)} disabled={act.isPending}>
                {confirm === 'remove' ? t('admin.yesRemove') : t('admin.yesSuspend')}
              </button>{' '}
              <button type="button" className="secondary" onClick={() => setConfirm(null)}>
                {t('admin.cancel')}
              </button>
            </div>
          ) : null}
          <ErrorNote error={act.error} title={t('admin.refused')} />
        </form>
      ) : null}
    </li>
  );
}

/** Flags grouped by what they report, in the order of their newest report. */
function byTarget(flags: Flag[]): Array<[string, Flag[]]> {
  const groups = new Map<string, Flag[]>();
  for (const f of flags) {
    const key = f.target ?? f.id;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.entries()];
}

export function FlagsPage() {
  const { t } = useT();
  const [status, setStatus] = useState('open');
  const flags = useQuery({
    queryKey: ['admin', 'flags', status],
    queryFn: () => api.get<Collection<Flag>>(pathOf('adminFlags'), { status, limit: 100 }),
  });
  return (
    <>
      <h1>{t('admin.flags')}</h1>
      <label>
        {t('admin.show')}
        <select value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="open">{t('admin.open')}</option>
          <option value="resolved">{t('admin.resolved')}</option>
          <option value="dismissed">{t('admin.dismissed')}</option>
          <option value="all">{t('admin.all')}</option>
        </select>
      </label>
      <QueryState query={flags} isEmpty={(d) => !d.orderedItems.length} empty={t('admin.queueEmpty')}>
        {(d) => (
          <ul className="plain">
            {byTarget(d.orderedItems).map(([target, group]) => (
              <FlagGroup key={target} target={target} flags={group} />
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
