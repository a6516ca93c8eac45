/**
 * Route tree auto-mount of spec 1.1: every subdirectory of a service's `routes/` folder that
 * has an index is mounted; `home` → `/`, `well-known` → `/.well-known`, `config` →
 * `/config.json`, any other name → `/<name>`; `middleware` and `utils` are skipped.
 * Each index default-exports `(ctx) => Router`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Router as expressRouter, type RouterOptions } from 'express';
import { bundledRoutes } from './bundled-routes';

const SKIP = new Set(['middleware', 'utils']);
const SPECIAL: Record<string, string> = { home: '/', 'well-known': '/.well-known', config: '/config.json' };

export function mountPathFor(dir: string): string | null {
  if (SKIP.has(dir)) return null;
  return SPECIAL[dir] ?? `/${dir}`;
}

export type RouterFactory<C> = (ctx: C) => Router;

export interface MountedRouter {
  path: string;
  router: Router;
  /** What the module says about its routes for the OpenAPI document (its `openapi` export). */
  docs?: Record<string, unknown>;
}

const INDEX_FILES = ['index.ts', 'index.js'];

type RouteModule = { default?: unknown; openapi?: unknown };

/** Finds the route directories in a deterministic order (`home` last so it never shadows). */
export function discoverRouteDirs(routesDir: string): Array<{ dir: string; path: string; file: string }> {
  const out: Array<{ dir: string; path: string; file: string }> = [];
  for (const dir of readdirSync(routesDir).sort()) {
    const full = join(routesDir, dir);
    if (!statSync(full).isDirectory()) continue;
    const path = mountPathFor(dir);
    if (!path) continue;
    const file = INDEX_FILES.map((f) => join(full, f)).find((f) => existsSync(f));
    if (!file) continue;
    out.push({ dir, path, file });
  }
  return out.sort((a, b) => Number(a.dir === 'home') - Number(b.dir === 'home'));
}

export function buildRouteTree<C>(routesDir: string, ctx: C): MountedRouter[] {
  const found =
    bundledRoutes(routesDir) ??
    discoverRouteDirs(routesDir).map(({ path, file }) => ({
      path,
      file,
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      mod: require(file) as RouteModule,
    }));
  return found.map(({ path, file, mod }) => {
    const make = mod.default as RouterFactory<C> | undefined;
    if (typeof make !== 'function') throw new Error(`${file} must default-export (ctx) => Router`);
    const docs = mod.openapi as Record<string, unknown> | undefined;
    return { path, router: make(ctx), ...(docs ? { docs } : {}) };
  });
}

// --- Route introspection for GET /__routes ------------------------------------------------

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  /** The path given to `use()` (router 2.x); `/` when none was given. */
  rawPath?: unknown;
}

/**
 * The mount path of a `use()` layer, as written where it was mounted, read from the router's own
 * layer and never from its handle: OpenTelemetry's express instrumentation replaces every
 * layer's handle with a wrapper, so anything keyed by the child router (a WeakMap once was) is
 * lost in exactly the processes that export traces, whose /__routes then dropped the prefix.
 */
function mountPathOf(layer: Layer): string {
  return typeof layer.rawPath === 'string' ? layer.rawPath : '';
}

function join2(a: string, b: string): string {
  const s = `${a.replace(/\/+$/, '')}/${b.replace(/^\/+/, '')}`;
  return s.length > 1 ? s.replace(/\/+$/, '') : s;
}

export interface RouteEntry {
  methods: string[];
  path: string;
}

export function listRoutes(mounted: MountedRouter[]): RouteEntry[] {
  const out: RouteEntry[] = [];
  const walk = (prefix: string, stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) {
          for (const m of Object.keys(layer.route.methods).filter((k) => k !== '_all')) {
            out.push({ methods: [m.toUpperCase()], path: join2(prefix, p) });
          }
        }
      } else if (layer.handle?.stack) {
        walk(join2(prefix, mountPathOf(layer)), layer.handle.stack);
      }
    }
  };
  for (const { path, router } of mounted) walk(path, (router as unknown as { stack: Layer[] }).stack);
  return dedupeSort(out);
}

export function dedupeSort(routes: RouteEntry[]): RouteEntry[] {
  const seen = new Set<string>();
  return routes
    .filter((r) => {
      const k = `${r.methods.join(',')} ${r.path}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) =>
      a.path === b.path ? a.methods.join().localeCompare(b.methods.join()) : a.path.localeCompare(b.path),
    );
}

/**
 * Every service router routes strictly and case-sensitively (docs/security.md, "One path"): the
 * gateway decides on the canonical path, and no other spelling may reach a route behind it.
 */
export function Router(opts: RouterOptions = {}): expressRouter {
  return expressRouter({ caseSensitive: true, strict: true, ...opts });
}
export type Router = expressRouter;
