/** Images of our own files and others' URLs, as `<img>` can show them. */
import { useEffect, useState } from 'react';
import { fetchObjectUrl } from '../api/client';
import { pathOf } from '../api/routes';
import { useT } from '../i18n/use-t';

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
  const { t } = useT();
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
  if (failed) return <p className="state">{t('post.imageFailed')}</p>;
  if (!url) return <p className="state">{t('post.imageLoading')}</p>;
  return <img className={className} src={url} alt={alt} data-file={ours ? src : undefined} />;
}
