/** One post with its replies thread, reactions, a reply box, and a report (Flag) form. */
import { useState } from 'react';
import { Link, useParams } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import { useConfig, useMe, useOutbox } from '../api/hooks';
import type { Collection, Post, Reply } from '../api/types';
import { when } from '../ui/format';
import { Avatar, PostCard, ServerHtml } from '../ui/post-card';
import { ContentWarning } from '../ui/sensitive';
import { ReplyBox } from '../ui/reply-box';
import { OwnerActions } from '../ui/post-actions';
import type { WithSource } from '../api/extra-types';
import { ErrorNote, QueryState } from '../ui/states';
import { useT } from '../i18n/use-t';

function Report({ target }: { target: string }) {
  const { t } = useT();
  const config = useConfig();
  const options = config.data?.flagOptions ?? [];
  const [reason, setReason] = useState('');
  const [details, setDetails] = useState('');
  const flag = useOutbox();
  if (flag.isSuccess) return <p role="status">{t('post.reportThanks')}</p>;
  return (
    <details>
      <summary>{t('post.report')}</summary>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          flag.mutate({
            type: 'Flag',
            target,
            object: { reason: { code: reason, ...(details ? { details } : {}) } },
          });
        }}
      >
        <label>
          {t('post.reason')}
          <select required value={reason} onChange={(e) => setReason(e.target.value)}>
            <option value="">{t('post.chooseReason')}</option>
            {options.map((o) => (
              <option key={o.code} value={o.code}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('post.details')}
          <input maxLength={2000} value={details} onChange={(e) => setDetails(e.target.value)} />
        </label>
        <button type="submit" disabled={flag.isPending}>
          {t('post.sendReport')}
        </button>
        <ErrorNote error={flag.error} title={t('post.reportRefused')} />
      </form>
    </details>
  );
}

export function PostPage() {
  const { t } = useT();
  const { id } = useParams({ from: '/posts/$id' });
  const me = useMe();
  const qc = useQueryClient();
  const post = useQuery({ queryKey: ['post', id], queryFn: () => api.get<Post>(pathOf('post', { id })) });
  const replies = useQuery({
    queryKey: ['post', id, 'replies'],
    queryFn: () => api.get<Collection<Reply & WithSource>>(pathOf('postReplies', { id }), { limit: 100 }),
    enabled: post.isSuccess,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['post', id] });
  return (
    <QueryState query={post}>
      {(p) => {
        const all = replies.data?.orderedItems ?? [];
        const top = all.filter((r) => !r.parent || r.parent === p.id);
        const children = (rid: string) => all.filter((r) => r.parent === rid);
        const one = (r: Reply & WithSource, nested: boolean) => (
          <li key={r.id} className="reply" data-testid="reply">
            <header>
              <Avatar src={r.actor?.icon} name={r.actor?.name} />
              <Link to="/users/$id" params={{ id: r.actorId }} className="author">
                {r.actor?.name ?? r.actorId}
              </Link>
              <time className="meta" dateTime={r.createdAt}>
                {when(r.createdAt)}
              </time>
            </header>
            <ContentWarning warning={r.contentWarning}>
              <ServerHtml html={r.body} />
            </ContentWarning>
            <OwnerActions
              id={r.id}
              authorId={r.actorId}
              source={r.source?.content}
              contentWarning={r.contentWarning}
              what="reply"
              onDeleted={() => void refresh()}
            />
            {!nested && me.data && p.canReply ? (
              <ReplyBox to={r.id} label={t('post.answer', { name: r.actor?.name ?? '' })} onDone={refresh} />
            ) : null}
            {children(r.id).length ? (
              <ol className="thread">{children(r.id).map((c) => one(c, true))}</ol>
            ) : null}
          </li>
        );
        return (
          <>
            <PostCard post={p} full />
            <section aria-labelledby="replies-h">
              <h2 id="replies-h">{t('post.repliesTitle')}</h2>
              {me.data && p.canReply ? (
                <ReplyBox to={p.id} label={t('post.yourReply')} onDone={refresh} />
              ) : null}
              {me.data && !p.canReply ? <p className="state">{t('post.repliesLimited')}</p> : null}
              <QueryState query={replies} isEmpty={(d) => !d.orderedItems.length} empty={t('post.noReplies')}>
                {() => <ol className="thread">{top.map((r) => one(r, false))}</ol>}
              </QueryState>
            </section>
            {me.data && p.attributedTo.id !== me.data.id ? <Report target={p.id} /> : null}
          </>
        );
      }}
    </QueryState>
  );
}
