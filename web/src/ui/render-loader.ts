/**
 * Loads the server's markdown module (libs/common/src/content/render.ts) on first use: the one
 * renderer of the compose preview, bios and group descriptions. A separate chunk, outside the
 * first-load budget (docs/web.md).
 */
export type Renderer = typeof import('../../../libs/common/src/content/render');

let loaded: Promise<Renderer> | undefined;
let ready: Renderer | undefined;

export function loadRenderer(): Promise<Renderer> {
  loaded ??= import('../../../libs/common/src/content/render').then((m) => (ready = m));
  return loaded;
}

/** The renderer if it has loaded already. */
export function loadedRenderer(): Renderer | undefined {
  return ready;
}
