/**
 * Process-level faults (issue 21, item 3). An error thrown in a request's code reaches the error
 * middleware and is answered 500 for that request only. One that escapes every handler
 * (`uncaughtException`, `unhandledRejection`) leaves the process in a state nobody can vouch
 * for: half-written state, a lock never released, a stream never ended. Carrying on would serve
 * requests from that state, so the process logs why (fatal, with the error and the request id if
 * a request's code threw), tries to close for at most `graceMs` (draining HTTP, closing the
 * database and the broker), and exits 1. A supervisor restarts it (README, "Running it for
 * real": systemd `Restart=on-failure`, Kubernetes, compose `restart: unless-stopped`).
 * Installed first thing by every process entry (`bootMain`, standalone's main.ts).
 */
import { writeSync } from 'node:fs';
import { currentRequestId } from './logger/context';

export const FATAL_GRACE_MS = 5_000;

export interface FatalHandlers {
  /** What to close before exiting (the app, telemetry); set once the app exists. */
  closeWith(close: () => Promise<unknown>): void;
}

type Fault = 'uncaughtException' | 'unhandledRejection';

/** One pino-shaped line (level 60: fatal), written synchronously: the process is about to go. */
function logFatal(service: string, msg: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level: 60, time: new Date().toISOString(), service, ...fields, msg });
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // stderr is gone too: nothing left to tell.
  }
}

function describe(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { type: err.name, message: err.message, stack: err.stack };
  return { type: typeof err, message: String(err) };
}

export function installFatalHandlers(service: string, graceMs = FATAL_GRACE_MS): FatalHandlers {
  let close: (() => Promise<unknown>) | undefined;
  let exiting = false;
  const onFault = (fault: Fault, err: unknown) => {
    const requestId = currentRequestId();
    logFatal(service, `${fault}: exiting (the process state is unknown)`, {
      fault,
      err: describe(err),
      ...(requestId ? { requestId } : {}),
    });
    // A second fault while closing changes nothing: the deadline below still ends the process.
    if (exiting) return;
    exiting = true;
    process.exitCode = 1;
    const deadline = setTimeout(() => {
      logFatal(service, `still closing after ${graceMs} ms: exiting now`);
      process.exit(1);
    }, graceMs);
    Promise.resolve()
      .then(() => close?.())
      .then(() => logFatal(service, 'closed; exiting with status 1'))
      .catch((closeErr: unknown) => logFatal(service, 'closing failed', { err: describe(closeErr) }))
      .finally(() => {
        clearTimeout(deadline);
        process.exit(1);
      });
  };
  process.on('uncaughtException', (err) => onFault('uncaughtException', err));
  process.on('unhandledRejection', (reason) => onFault('unhandledRejection', reason));
  return {
    closeWith(fn) {
      close = fn;
    },
  };
}
