/**
 * Markdown shown in the app: the compose preview, bios and group descriptions. It is rendered by
 * the server's own module (libs/common/src/content/render.ts: marked with the same extensions,
 * then the same sanitiser), so the preview is exactly what will be published. That module is
 * loaded on first use, outside the first-load budget (docs/web.md).
 */
import { useEffect, useState } from 'react';
import { ServerHtml } from './server-html';

import { loadedRenderer, loadRenderer, type Renderer } from './render-loader';

export { loadRenderer };

/** The renderer once loaded (the first render of a screen may have to wait for it). */
function useRenderer(): Renderer | undefined {
  const [r, setR] = useState<Renderer | undefined>(loadedRenderer);
  useEffect(() => {
    if (r) return;
    let live = true;
    void loadRenderer().then((m) => live && setR(m));
    return () => {
      live = false;
    };
  }, [r]);
  return r;
}

/** Markdown source rendered to the sanitised HTML the server would store. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  const r = useRenderer();
  if (!r) return <p className="state">Rendering…</p>;
  return <ServerHtml className={className ?? 'content markdown'} html={r.renderMarkdown(source)} />;
}
