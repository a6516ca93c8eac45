/** A post as shown in timelines and on its own page. */
import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { fetchObjectUrl } from '../api/client';
import { pathOf } from '../api/routes';
import { useConfig, useMe, useOutbox } from '../api/hooks';
import type { Post } from '../api/types';
import { audienceLabel, when } from './format';
import { ErrorNote } from './states';

/** Used when the server's `reactEmojis` setting is empty. */
const DEFAULT_REACTIONS = [{ emoji: '👍', name: 'Like' }];

/** A media reference (URL, /path or a file id) as something `<img src>` can load. */
export function mediaSrc(ref: string | null | undefined): string | undefined {
  if (!ref) return undefined;
  return ref.startsWith('file:') ? pathOf('file', { id: ref }) : ref;
}

/**
 * An image that may belong to a non-public file: our /files/ URLs are fetched with the session's
 * Authorization header into an object URL; other URLs load as usual.
 */
export function MediaImage({ src, alt, className }: { src: string; alt: string; className?: string }) {
  const ours = /^\/files\//.test(src) || src.startsWith(`${location.origin}/files/`);
  const [url, setUrl] = useState<string | undefined>(ours ? undefined : src);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!ours) return setUrl(src);
    let objectUrl: string | undefined;
    let live = true;
    fetchObjectUrl(src)
      .then((u) => {
        objectUrl = u;
        if (live) setUrl(u);
        else URL.revokeObjectURL(u);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [src, ours]);
  if (failed) return <p className="state">The image could not be loaded.</p>;
  if (!url) return <p className="state">Loading image…</p>;
  return <img className={className} src={url} alt={alt} data-file={ours ? src : undefined} />;
}

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
        <MediaImage className="post-image" src={mediaSrc(post.image)!} alt={post.summary ?? ''} />
      ) : null}
      {(post.attachments ?? []).map((a, i) =>
        a.url && (a.mediaType ?? '').startsWith('image/') ? (
          <MediaImage key={i} className="post-image" src={a.url} alt={a.name ?? ''} />
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
