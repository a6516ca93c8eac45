/**
 * Markdown shown in the app: the compose preview, bios and group descriptions. It is rendered by
 * the server's own module (libs/common/src/content/render.ts: marked with the same extensions,
 * then the same sanitiser), so the preview is exactly what will be published. That module is
 * loaded on first use, outside the first-load budget (docs/web.md).
 */
import { useEffect, useState } from 'react';
import { ServerHtml } from './server-html';

import { loadedRenderer, loadRenderer, preloadRenderer, type Renderer } from './render-loader';
import { useT } from '../i18n/use-t';

export { preloadRenderer };

/**
 * The renderer once loaded (the first render of a screen may have to wait for it), and whether
 * loading it failed (offline): then it is tried again when the browser is back online.
 */
function useRenderer(): { r: Renderer | undefined; failed: boolean } {
  const [r, setR] = useState<Renderer | undefined>(loadedRenderer);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (r) return;
    let live = true;
    const attempt = () =>
      loadRenderer().then(
        (m) => live && setR(m),
        () => live && setFailed(true),
      );
    void attempt();
    const again = () => {
      setFailed(false);
      void attempt();
    };
    window.addEventListener('online', again);
    return () => {
      live = false;
      window.removeEventListener('online', again);
    };
  }, [r]);
  return { r, failed };
}

/** Markdown source rendered to the sanitised HTML the server would store. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const { t } = useT();
  const { r, failed } = useRenderer();
  if (!r && failed)
    return (
      <div className={className ?? 'content markdown'}>
        <p className="state">{t('compose.offlinePreview')}</p>
        <p className="plain-source">{source}</p>
      </div>
    );
  if (!r) return <p className="state">{t('compose.rendering')}</p>;
  return <ServerHtml className={className ?? 'content markdown'} html={r.renderMarkdown(source)} />;
}
