/**
 * Loaded into the compiled standalone before its entry (`node --import tsx --import <this file>
 * dist/standalone.js`): on SIGUSR2 it throws from a timer (FAULT_KIND=exception) or rejects a
 * promise nobody handles (FAULT_KIND=rejection), the two faults no request handler can catch.
 * The signal lets the test fire the fault once the server is up, whatever the machine's speed.
 */
const kind = process.env.FAULT_KIND ?? 'exception';

process.on('SIGUSR2', () => {
  setTimeout(() => {
    if (kind === 'rejection') void Promise.reject(new Error('injected fault: a rejection nobody handles'));
    else throw new Error('injected fault: thrown from a timer');
  }, 10);
});
