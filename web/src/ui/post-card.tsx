/** A post as shown in timelines and on its own page. */
import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useConfig, useMe, useOutbox } from '../api/hooks';
import type { Post } from '../api/types';
import type { WithSource } from '../api/extra-types';
import { BookmarkButton, BoostButton, OwnerActions, ShareButton } from './post-actions';
import { ReplyBox } from './reply-box';
import { audienceLabel, when } from './format';
import { ErrorNote } from './states';
import { mediaSrc } from './media-image';
import { ContentWarning, PostMedia } from './sensitive';

/** Used when the server's `reactEmojis` setting is empty. */
const DEFAULT_REACTIONS = [{ emoji: '👍', name: 'Like' }];

export function Avatar({ src: ref, name }: { src?: string | null; name?: string | null }) {
  const src = mediaSrc(ref);
  if (src && /^(https?:\/\/|\/)/.test(src))
    return <img className="avatar" src={src} alt="" width={40} height={40} />;
  return (
    <span className="avatar" aria-hidden="true">
      {(name ?? '?').slice(0, 1).toUpperCase()}
    </span>
  );
}

import { ServerHtml } from './server-html';
import { useT } from '../i18n/use-t';
export { ServerHtml };

/** Reactions, optimistic: the choice shows at once and rolls back with a message if refused. */
export function Reactions({ post }: { post: Post }) {
  const { t } = useT();
  const me = useMe();
  const config = useConfig();
  const qc = useQueryClient();
  const react = useOutbox();
  const [mine, setMine] = useState<{ emoji: string | null } | null>(null);
  if (!me.data) return null;
  const choices = config.data?.reactEmojis?.length ? config.data.reactEmojis : DEFAULT_REACTIONS;
  const serverMine = post.myReact ?? null;
  const current = mine ? mine.emoji : serverMine;
  const count = (emoji: string) => {
    const base = post.reactSummary?.[emoji] ?? 0;
    if (!mine) return base;
    return base - (serverMine === emoji ? 1 : 0) + (current === emoji ? 1 : 0);
  };
  const send = (emoji: string, name: string) => {
    const next = current === emoji ? null : emoji;
    setMine({ emoji: next });
    react.mutate(
      { type: 'React', to: post.id, object: { emoji: next ?? '', name } },
      {
        onError: () => setMine(null),
        onSuccess: () =>
          void Promise.all([
            qc.invalidateQueries({ queryKey: ['post', post.id] }),
            qc.invalidateQueries({ queryKey: ['timeline'] }),
            qc.invalidateQueries({ queryKey: ['posts'] }),
          ]).then(() => setMine(null)),
      },
    );
  };
  return (
    <div className="reactions" role="group" aria-label={t('post.reactionsGroup')}>
      {choices.map(({ emoji, name }) => (
        <button
          key={emoji}
          type="button"
          className="react"
          aria-pressed={current === emoji}
          disabled={!post.canReact || react.isPending}
          onClick={() => send(emoji, name)}
        >
          <span aria-hidden="true">{emoji}</span> <span className="sr-only">{name}</span> {count(emoji)}
        </button>
      ))}
      <ErrorNote error={react.error} title={t('post.reactionUndone')} />
    </div>
  );
}

export function PostCard({ post, full = false }: { post: Post & WithSource; full?: boolean }) {
  const { t } = useT();
  const config = useConfig();
  const me = useMe();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [replying, setReplying] = useState(false);
  const author = post.attributedTo;
  const Title = full ? 'h1' : 'h2';
  const label = post.title || post.summary?.slice(0, 60) || t('post.fallbackTitle');
  return (
    <article className="post" data-testid="post" aria-labelledby={`p-${post.id}`}>
      <header>
        <Avatar src={author.icon} name={author.name} />
        <div>
          {author.id ? (
            <Link to="/users/$id" params={{ id: author.id }} className="author">
              {author.name ?? author.id}
            </Link>
          ) : (
            <span className="author">{author.name}</span>
          )}
          <div className="meta">
            <Link to="/posts/$id" params={{ id: post.id }} id={`p-${post.id}`}>
              <time dateTime={post.published ?? undefined}>{when(post.published)}</time>
            </Link>
            {post.to ? <span> · {audienceLabel(post.to, config.data?.domain)}</span> : null}
          </div>
        </div>
      </header>
      {post.title ? <Title className="post-title">{post.title}</Title> : null}
      <ContentWarning warning={post.contentWarning}>
        <ServerHtml html={post.body} />
        <PostMedia post={post} />
        {post.href ? (
          <p>
            <a href={post.href} rel="noopener noreferrer nofollow" target="_blank">
              {post.href}
            </a>
          </p>
        ) : null}
      </ContentWarning>
      <footer>
        <Link to="/posts/$id" params={{ id: post.id }}>
          {t('post.replies', { count: post.replyCount ?? 0 })}
        </Link>
        <span> · {t('post.reactions', { count: post.reactCount ?? 0 })}</span>
      </footer>
      <Reactions post={post} />
      <div className="card-actions" role="group" aria-label={t('post.actions')}>
        {!full && me.data && post.canReply ? (
          <button
            type="button"
            className="link-button"
            aria-expanded={replying}
            onClick={() => setReplying(!replying)}
          >
            {t('post.reply')}
          </button>
        ) : null}
        <BoostButton id={post.id} to={post.to} />
        <BookmarkButton target={post.id} title={label} />
        <ShareButton path={`/posts/${encodeURIComponent(post.id)}`} title={label} />
        <OwnerActions
          id={post.id}
          authorId={author.id}
          source={post.source?.content}
          contentWarning={post.contentWarning}
          sensitive={post.sensitive}
          what="post"
          onDeleted={() => {
            if (full) void navigate({ to: '/' });
          }}
        />
      </div>
      {replying ? (
        <ReplyBox
          to={post.id}
          label={t('post.yourReply')}
          onDone={() => {
            setReplying(false);
            return qc.invalidateQueries({ queryKey: ['post', post.id] });
          }}
        />
      ) : null}
    </article>
  );
}
