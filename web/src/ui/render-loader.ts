/**
 * Loads the server's markdown module (libs/common/src/content/render.ts) on first use: the one
 * renderer of the compose preview, bios and group descriptions. A separate chunk, outside the
 * first-load budget (docs/web.md).
 */
export type Renderer = typeof import('../../../libs/common/src/content/render');

let loaded: Promise<Renderer> | undefined;
let ready: Renderer | undefined;

/** The renderer; a failed load (offline) is forgotten, so the next use tries again. */
export function loadRenderer(): Promise<Renderer> {
  loaded ??= import('../../../libs/common/src/content/render').then(
    (m) => (ready = m),
    (err: unknown) => {
      loaded = undefined;
      throw err;
    },
  );
  return loaded;
}

/** Starts loading ahead of use (hover, focus); a failure waits for the use itself. */
export function preloadRenderer(): void {
  loadRenderer().catch(() => undefined);
}

/** The renderer if it has loaded already. */
export function loadedRenderer(): Renderer | undefined {
  return ready;
}
