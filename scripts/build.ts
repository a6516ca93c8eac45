/**
 * `npm run build`: compiles every process entry point (standalone and each service's main.ts)
 * into one CommonJS file under dist/ with esbuild, so production runs JavaScript with no
 * TypeScript loader (docs/operations.md). The `@agora/*` workspaces are bundled in; npm packages stay
 * external and load from node_modules at run time, where OpenTelemetry's auto-instrumentation
 * patches them as before. Each `dist/<name>.js` is a three-line loader that turns source maps on
 * for the bundle (stack traces name the .ts sources), turns Node's compile cache on and requires
 * `dist/<name>.bundle.js`.
 *
 *   node --import tsx scripts/build.ts              # always builds
 *   node --import tsx scripts/build.ts --if-stale   # only when dist/ is missing or older than a source
 *
 * Route folders (spec 1.1's auto-mount) are discovered here, at build time, with the same
 * discoverRouteDirs the services use at run time from sources, and registered in the bundle
 * (libs/common/src/http/bundled-routes.ts). The only `__dirname` uses (each service's
 * routes folder, the gateway's web/dist) are rewritten to their source directory relative to
 * the repository, so they resolve the same from dist/ as from the sources.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { discoverRouteDirs } from '@agora/common/http';

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.built');
const SERVICES = ['gateway', 'social', 'admin', 'federation', 'notifications', 'backup'] as const;
const SOURCE_DIRS = ['libs', 'services', 'standalone'];
const EDGE_FORBIDDEN = ['mongoose', 'mongodb', 'amqplib', '@aws-sdk/client-s3'];

/** Newest modification time among the inputs of the build (sources, manifests, this script). */
function newestInput(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist') continue;
      const full = join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (/\.(ts|json)$/.test(name)) newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const d of SOURCE_DIRS) walk(join(ROOT, d));
  for (const f of ['package.json', 'package-lock.json', 'scripts/build.ts'])
    newest = Math.max(newest, statSync(join(ROOT, f)).mtimeMs);
  return newest;
}

export function isStale(): boolean {
  return !existsSync(STAMP) || statSync(STAMP).mtimeMs < newestInput();
}

const rel = (p: string) => relative(ROOT, p).split('\\').join('/');

/** The generated entry of one output: register its services' route modules, then run main.ts. */
function entrySource(main: string, services: readonly string[]): string {
  const lines = [
    `const { join } = require('node:path');`,
    `const { registerBundledRoutes } = require('./libs/common/src/http/bundled-routes.ts');`,
  ];
  for (const s of services) {
    const routesDir = join(ROOT, 'services', s, 'src', 'routes');
    if (!existsSync(routesDir)) continue;
    const routes = discoverRouteDirs(routesDir).map(
      ({ path, file }) =>
        `{ path: ${JSON.stringify(path)}, file: ${JSON.stringify(rel(file))}, mod: require(${JSON.stringify(`./${rel(file)}`)}) }`,
    );
    lines.push(
      `registerBundledRoutes(join(__dirname, '..', ${JSON.stringify(rel(routesDir))}), () => [\n  ${routes.join(',\n  ')},\n]);`,
    );
  }
  lines.push(`require(${JSON.stringify(`./${main}`)});`);
  return lines.join('\n');
}

const entries: Record<string, { main: string; services: readonly string[] }> = {
  standalone: { main: 'standalone/src/main.ts', services: SERVICES },
  ...Object.fromEntries(SERVICES.map((s) => [s, { main: `services/${s}/src/main.ts`, services: [s] }])),
  'ensure-bucket': { main: 'libs/common/src/tasks/ensure-bucket.ts', services: [] },
  'backup-now': { main: 'services/backup/src/schedule-main.ts', services: [] },
};

const agoraPlugin: Plugin = {
  name: 'agora',
  setup(b) {
    b.onResolve({ filter: /^agora-entry:/ }, (args) => ({
      path: args.path.slice(12),
      namespace: 'agora-entry',
    }));
    b.onLoad({ filter: /.*/, namespace: 'agora-entry' }, (args) => {
      const e = entries[args.path]!;
      return { contents: entrySource(e.main, e.services), resolveDir: ROOT, loader: 'js' };
    });
    // npm packages (and node: builtins) stay external; only the workspaces are bundled.
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@agora/') ? undefined : { path: args.path, external: true },
    );
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('__dirname')) return undefined;
      const dir = JSON.stringify(rel(dirname(args.path)));
      return { contents: text.replace(/\b__dirname\b/g, `__agoraSourceDir(${dir})`), loader: 'ts' };
    });
  },
};

export async function buildAll(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true }); // no leftovers of an older layout
  mkdirSync(DIST, { recursive: true });
  const result = await build({
    metafile: true,
    entryPoints: Object.fromEntries(
      Object.keys(entries).map((name) => [`${name}.bundle`, `agora-entry:${name}`]),
    ),
    outdir: DIST,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    sourcemap: true,
    sourcesContent: false,
    keepNames: true, // error and class names stay what the sources say
    logLevel: 'warning',
    // route-tree.ts's require(file) serves the unbundled sources (tests, tsx) only.
    logOverride: { 'unsupported-require-call': 'silent' },
    banner: { js: `const __agoraSourceDir = (rel) => require('node:path').join(__dirname, '..', rel);` },
    plugins: [agoraPlugin],
  });
  // What the bundles require from node_modules at run time: the image's smoke test resolves each.
  const externals = new Set<string>();
  for (const out of Object.values(result.metafile.outputs))
    for (const i of out.imports) if (i.external && !i.path.startsWith('node:')) externals.add(i.path);
  // The gateway never touches the database, the broker or the object store (docs/architecture.md,
  // package boundaries): its bundle must not even require their clients.
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    if (!file.endsWith('/gateway.bundle.js')) continue;
    const heavy = out.imports.filter((i) => i.external && EDGE_FORBIDDEN.includes(i.path)).map((i) => i.path);
    if (heavy.length) throw new Error(`dist/gateway.bundle.js requires ${[...new Set(heavy)].join(', ')}`);
  }
  // dist/<name>.js turns source maps on for our code only, then loads the bundle. `node
  // --enable-source-maps` would also parse every source map shipped in node_modules: measured
  // +35 MB RSS and +1 s start for standalone (docs/performance.md). Node's compile cache keeps
  // V8's code for the bundle and node_modules between starts (in NODE_COMPILE_CACHE, else the
  // system's temporary directory; nothing when it is not writable): a restart compiles less.
  for (const name of Object.keys(entries)) {
    writeFileSync(
      join(DIST, `${name}.js`),
      [
        `'use strict';`,
        `// Generated by scripts/build.ts: source maps for dist/ (not node_modules), then the bundle.`,
        `require('node:module').setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });`,
        `require('node:module').enableCompileCache();`,
        `require('./${name}.bundle.js');`,
        '',
      ].join('\n'),
    );
  }
  writeFileSync(join(DIST, 'externals.json'), `${JSON.stringify([...externals].sort(), null, 2)}\n`);
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

if (require.main === module) {
  const ifStale = process.argv.includes('--if-stale');
  if (ifStale && !isStale()) process.exit(0);
  const started = Date.now();
  buildAll().then(
    () => console.error(`[build] dist/ built in ${Date.now() - started} ms`),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
