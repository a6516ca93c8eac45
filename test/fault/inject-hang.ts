/**
 * Loaded into the compiled standalone before its entry (`node --import tsx --import <this file>
 * dist/standalone.js`), like inject-fault.ts: a store that stops answering. Each SIGUSR2 turns it
 * on or off (and says so on stdout, for the test to wait on). While on, opening an object of the
 * disk storage (`DATA_DIR/objects`) waits, as on a stuck disk or network file system; turned off,
 * the waiting opens go on as asked, so the service finishes its work (and answers) late.
 */
import fsp from 'node:fs/promises';
import { resolve } from 'node:path';

const objects = resolve(process.env.DATA_DIR ?? './data', 'objects');
const open = fsp.open;
let stuck: { promise: Promise<void>; release: () => void } | undefined;

fsp.open = async (...args: Parameters<typeof open>) => {
  if (stuck && resolve(String(args[0])).startsWith(objects)) await stuck.promise;
  return open(...args);
};

process.on('SIGUSR2', () => {
  if (stuck) {
    stuck.release();
    stuck = undefined;
    console.log('inject-hang: storage answers again');
    return;
  }
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  stuck = { promise, release };
  console.log('inject-hang: storage stuck');
});
