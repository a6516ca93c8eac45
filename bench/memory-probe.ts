/**
 * Loaded into the server under `bench/memory.ts` (`node --expose-gc --import <this file>
 * dist/standalone.js`; Node strips the types itself, so the compiled entry runs without tsx):
 * on SIGUSR2 it writes the process's memory to `$MEMORY_PROBE_DIR/<n>.json` as it is, then
 * after two full collections (what the heap holds alive, against what it had committed), and
 * a heap snapshot beside it when MEMORY_PROBE_SNAPSHOT=1. A measuring aid only: never loaded
 * by the server itself.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

const dir = process.env.MEMORY_PROBE_DIR;
if (!dir) throw new Error('memory-probe: MEMORY_PROBE_DIR is not set');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('memory-probe: run node with --expose-gc');

const kb = (text: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);

function sample() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, { committed: s.space_size, used: s.space_used_size }]),
  );
  return {
    ...process.memoryUsage(),
    rssAnonKb: kb(status, 'RssAnon'),
    rssFileKb: kb(status, 'RssFile'),
    spaces,
  };
}

let n = 0;
process.on('SIGUSR2', () => {
  const before = sample();
  gc();
  gc();
  const after = sample();
  const k = n++;
  if (process.env.MEMORY_PROBE_SNAPSHOT === '1') writeHeapSnapshot(`${dir}/${k}.heapsnapshot`);
  // Written beside and renamed into place: the reader polling for it never sees it half written.
  writeFileSync(`${dir}/${k}.json.partial`, JSON.stringify({ before, after }));
  renameSync(`${dir}/${k}.json.partial`, `${dir}/${k}.json`);
});
