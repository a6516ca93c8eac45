/**
 * Content warnings and sensitive media (ADR 0021): what a post says it holds before it is shown.
 * A warning collapses the content behind a Show button; sensitive images stay blurred until the
 * reader asks. Both are buttons, so they work from the keyboard, and the image keeps its
 * description as alt text while blurred.
 */
import { useId, useState, type ReactNode } from 'react';
import type { Post } from '../api/types';
import { MediaImage, mediaSrc } from './media-image';
import { useT } from '../i18n/use-t';

export function ContentWarning({ warning, children }: { warning?: string | null; children: ReactNode }) {
  const { t } = useT();
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!warning) return <>{children}</>;
  return (
    <div className="content-warning">
      <p className="cw-text">
        <strong>{t('post.contentWarning')}</strong> {warning}{' '}
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          {open ? t('post.hide') : t('post.show')}
        </button>
      </p>
      <div id={id} hidden={!open}>
        {open ? children : null}
      </div>
    </div>
  );
}

type Media = NonNullable<Post['media']>[number];

/** One image: blurred behind a button while it is sensitive and not yet shown. */
function PostImage({ src, alt, sensitive }: { src: string; alt: string; sensitive: boolean }) {
  const { t } = useT();
  const [shown, setShown] = useState(!sensitive);
  if (shown) return <MediaImage className="post-image" src={src} alt={alt} />;
  return (
    <div className="sensitive-media">
      <MediaImage className="post-image blurred" src={src} alt={alt} />
      <button type="button" className="reveal" onClick={() => setShown(true)}>
        {t('post.sensitiveShow')}
      </button>
    </div>
  );
}

/** Where an item loads from: our own files by their path here (private ones need the session). */
const srcOf = (m: Media) => (m.id ? mediaSrc(m.id)! : m.url);

/** The post's image (when it is not one of its media) and its images, each with its description. */
export function PostMedia({ post }: { post: Post }) {
  const media = post.media ?? [];
  const sensitive = post.sensitive === true;
  const images = media.filter((m) => m.mediaType.startsWith('image/'));
  const own = post.image ? media.find((m) => m.id === post.image) : undefined;
  return (
    <>
      {post.image && !own ? <PostImage src={mediaSrc(post.image)!} alt="" sensitive={sensitive} /> : null}
      {images.map((m, i) => (
        <PostImage key={m.id ?? i} src={srcOf(m)} alt={m.description} sensitive={sensitive} />
      ))}
    </>
  );
}
