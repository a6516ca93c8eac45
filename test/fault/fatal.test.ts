/**
 * Faults no handler can catch (issue 21, item 3): an exception thrown from a timer and a promise
 * rejection nobody handles, injected into the compiled standalone through `--import`. The process
 * must log why (a fatal line naming the fault and the error), close within the grace period and
 * exit non-zero, so that its supervisor (systemd `Restart=on-failure`, Kubernetes, compose)
 * restarts it. Before, an uncaught exception exited without closing anything, and the process
 * entries had no handlers of their own.
 */
import { join } from 'node:path';
import { FATAL_GRACE_MS } from '@agora/common/fatal';
import { call, startCompiled } from '../harness/compiled';

const INJECT = join(__dirname, 'inject-fault.ts');

interface FatalLine {
  level: number;
  service: string;
  fault: string;
  err: { message: string };
  msg: string;
}

function fatalLines(output: string): FatalLine[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes('"level":60'))
    .map((l) => JSON.parse(l) as FatalLine);
}

test.each([
  ['exception', 'uncaughtException', 'injected fault: thrown from a timer'],
  ['rejection', 'unhandledRejection', 'injected fault: a rejection nobody handles'],
])('an injected %s: logged as fatal, closed, exit 1', async (kind, fault, message) => {
  const server = await startCompiled({
    env: { FAULT_KIND: kind },
    nodeArgs: ['--import', 'tsx', '--import', INJECT],
  });
  try {
    expect((await call(server, 'GET', '/health')).status).toBe(200);
    const fired = Date.now();
    server.child.kill('SIGUSR2');
    const exit = await server.exited;
    expect(exit).toEqual({ code: 1, signal: null });
    // Closed within the grace period (plus the time to start the close).
    expect(Date.now() - fired).toBeLessThan(FATAL_GRACE_MS + 3_000);
    const lines = fatalLines(server.output());
    expect(lines[0]).toMatchObject({
      level: 60,
      service: 'standalone',
      fault,
      err: { message },
      msg: `${fault}: exiting (the process state is unknown)`,
    });
    expect(lines.map((l) => l.msg)).toContain('closed; exiting with status 1');
  } finally {
    await server.stop();
  }
});
