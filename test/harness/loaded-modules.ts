/**
 * Loaded into a process under test before its entry (`node --import tsx --import <this file>`):
 * on SIGUSR2 it writes the absolute path of every module the process has loaded so far, one per
 * line, to the file named by LOADED_MODULES_FILE. CommonJS modules come from require.cache;
 * ES modules (and CommonJS ones reached through import) are seen by an in-thread load hook.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

const out = process.env.LOADED_MODULES_FILE;
if (!out) throw new Error('loaded-modules: LOADED_MODULES_FILE is not set');

const seen = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) seen.add(fileURLToPath(url));
    return nextLoad(url, context);
  },
});

process.on('SIGUSR2', () => {
  const all = new Set([...seen, ...Object.keys(require.cache)]);
  // Written beside and renamed into place: a reader polling for the file never sees it half written.
  writeFileSync(`${out}.partial`, `${[...all].sort().join('\n')}\n`);
  renameSync(`${out}.partial`, out);
});
