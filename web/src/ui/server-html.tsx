/**
 * The server's rendered and sanitised HTML (libs/common/src/content/render.ts): the only HTML the
 * app injects. Links inside it to the app's own screens (hashtags, mentions) navigate in the app.
 */
import type { MouseEvent } from 'react';
import { useRouter } from '@tanstack/react-router';

export function ServerHtml({ html, className }: { html: string | undefined | null; className?: string }) {
  const router = useRouter();
  if (!html) return null;
  const follow = (e: MouseEvent<HTMLDivElement>) => {
    const a = (e.target as HTMLElement).closest('a');
    const href = a?.getAttribute('href') ?? '';
    if (!a || !href.startsWith('/') || href.startsWith('//') || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    router.history.push(href);
  };
  return (
    <div className={className ?? 'content'} onClick={follow} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
