/**
 * Process entry for every service (style.md §1): read and validate the config (a bad value
 * prints a message naming the variable and exits 2), start telemetry before the app's modules
 * load (so auto-instrumentation can patch them), build the app, run it, dispose it on SIGTERM.
 * A fault that escapes every handler logs why and exits 1 after a bounded close (./fatal.ts).
 * Imports nothing heavy at the top on purpose.
 */
import { loadConfig } from './config/load';
import type { Config } from './config/schema';
import { ConfigError } from './errors';
import { installFatalHandlers } from './fatal';
import { startTelemetry } from './telemetry';

interface Disposable {
  start(): Promise<unknown>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function bootMain(
  service: string,
  load: () => Promise<(config: Config) => Disposable>,
): Promise<void> {
  const fatal = installFatalHandlers(service);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
  const telemetry = await startTelemetry(config, service);
  // Loaded after telemetry, like the app: it brings node:http, which the SDK patches.
  await (await import('./metrics/process')).serveMetrics(config);
  const make = await load();
  const app = make(config);
  fatal.closeWith(() => app[Symbol.asyncDispose]().then(() => telemetry.shutdown()));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${service}: ${signal}, draining`);
    // Drained and closed: exit now (0 unless closing failed) rather than wait for a stray timer.
    app[Symbol.asyncDispose]()
      .then(() => telemetry.shutdown())
      .catch((err: unknown) => {
        console.error(err);
        process.exitCode = 1;
      })
      .finally(() => process.exit());
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  await app.start();
}
