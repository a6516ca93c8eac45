/**
 * Route modules of the compiled build (scripts/build.mjs). The build has no route folders to
 * read at run time: it finds them at build time with discoverRouteDirs and registers, per
 * service, a loader keyed by the routesDir that service passes. The loader requires the
 * modules only when the service builds its routes, after telemetry has started (so the
 * instrumentations patch express and the rest first). Imports nothing on purpose.
 */
export interface BundledRoute {
  path: string;
  file: string;
  mod: { default?: unknown; openapi?: unknown };
}

const loaders = new Map<string, () => BundledRoute[]>();

export function registerBundledRoutes(routesDir: string, load: () => BundledRoute[]): void {
  loaders.set(routesDir, load);
}

export function bundledRoutes(routesDir: string): BundledRoute[] | undefined {
  return loaders.get(routesDir)?.();
}
