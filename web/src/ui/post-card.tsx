/** A post as shown in timelines and on its own page. */
import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useConfig, useMe, useOutbox } from '../api/hooks';
import type { Post } from '../api/types';
import { audienceLabel, when } from './format';
import { ErrorNote } from './states';

/** Used when the server's `reactEmojis` setting is empty. */
const DEFAULT_REACTIONS = [{ emoji: '👍', name: 'Like' }];

export function Avatar({ src, name }: { src?: string | null; name?: string | null }) {
  if (src && /^(https?:\/\/|\/)/.test(src))
    return <img className="avatar" src={src} alt="" width={40} height={40} />;
  return (
    <span className="avatar" aria-hidden="true">
      {(name ?? '?').slice(0, 1).toUpperCase()}
    </span>
  );
}

/** The server renders and sanitises `body` (libs/common content): the only HTML the app injects. */
export function ServerHtml({ html, className }: { html: string | undefined; className?: string }) {
  if (!html) return null;
  return <div className={className ?? 'content'} dangerouslySetInnerHTML={{ __html: html }} />;
}

export function Reactions({ post }: { post: Post }) {
  const me = useMe();
  const config = useConfig();
  const qc = useQueryClient();
  const react = useOutbox();
  if (!me.data) return null;
  const choices = config.data?.reactEmojis?.length ? config.data.reactEmojis : DEFAULT_REACTIONS;
  const summary = post.reactSummary ?? {};
  const send = (emoji: string, name: string) =>
    react.mutate(
      { type: 'React', to: post.id, object: { emoji: post.myReact === emoji ? '' : emoji, name } },
      {
        onSuccess: () => {
          void qc.invalidateQueries({ queryKey: ['post', post.id] });
          void qc.invalidateQueries({ queryKey: ['timeline'] });
        },
      },
    );
  return (
    <div className="reactions" role="group" aria-label="Reactions">
      {choices.map(({ emoji, name }) => (
        <button
          key={emoji}
          type="button"
          className="react"
          aria-pressed={post.myReact === emoji}
          disabled={!post.canReact || react.isPending}
          onClick={() => send(emoji, name)}
        >
          <span aria-hidden="true">{emoji}</span> <span className="sr-only">{name}</span>{' '}
          {summary[emoji] ?? 0}
        </button>
      ))}
      <ErrorNote error={react.error} title="Reaction refused" />
    </div>
  );
}

export function PostCard({ post, full = false }: { post: Post; full?: boolean }) {
  const config = useConfig();
  const author = post.attributedTo;
  const Title = full ? 'h1' : 'h2';
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
      <ServerHtml html={post.body} />
      {post.image ? (
        <img className="post-image" src={post.image} alt={post.summary ?? ''} loading="lazy" />
      ) : null}
      {(post.attachments ?? []).map((a, i) =>
        a.url && (a.mediaType ?? '').startsWith('image/') ? (
          <img key={i} className="post-image" src={a.url} alt={a.name ?? ''} loading="lazy" />
        ) : null,
      )}
      {post.href ? (
        <p>
          <a href={post.href} rel="noopener noreferrer nofollow" target="_blank">
            {post.href}
          </a>
        </p>
      ) : null}
      <footer>
        <Link to="/posts/$id" params={{ id: post.id }}>
          {post.replyCount ?? 0} {post.replyCount === 1 ? 'reply' : 'replies'}
        </Link>
        <span>
          {' '}
          · {post.reactCount ?? 0} {post.reactCount === 1 ? 'reaction' : 'reactions'}
        </span>
      </footer>
      {full ? <Reactions post={post} /> : null}
    </article>
  );
}
