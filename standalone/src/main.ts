import { loadConfig } from '@agora/common/config';
import { ConfigError } from '@agora/common/errors';
import { installFatalHandlers } from '@agora/common/fatal';
import { startTelemetry } from '@agora/common/telemetry';

async function main(): Promise<void> {
  // An error that escapes every handler: logged, a bounded close, exit 1 (a supervisor restarts).
  const fatal = installFatalHandlers('standalone');
  let config;
  try {
    const loaded = loadConfig();
    // On a laptop the public URL is the local port unless told otherwise.
    config = loaded.PUBLIC_URL ? loaded : { ...loaded, publicUrl: `http://localhost:${loaded.PORT}` };
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
  // Telemetry first (when OTEL_EXPORTER_OTLP_ENDPOINT is set), then the app's modules, so the
  // instrumentations can patch what they load (as every service's entry does: boot.ts).
  const telemetry = await startTelemetry(config, 'standalone');
  const { startStandalone } = await import('./standalone');
  const { serveMetrics } = await import('@agora/common/metrics');
  const app = await startStandalone(config, { generateAdmin: true });
  // One endpoint for the whole process (every service's families, told apart by `service`).
  await serveMetrics(config);
  fatal.closeWith(() => app.close().then(() => telemetry.shutdown()));
  const port = new URL(app.url).port;
  console.log(
    [
      '',
      `  Agora is running (standalone) on http://localhost:${port}`,
      `  Health:   curl http://localhost:${port}/health`,
      `  Routes:   curl http://localhost:${port}/__routes`,
      `  Log in:   curl -X POST http://localhost:${port}/auth/login -H 'content-type: application/json' \\`,
      `              -d '{"username":"<admin username>","password":"<password>"}'`,
      '            (the admin password was printed above on the first start, or is ADMIN_PASSWORD)',
      `  Data:     ${config.DATA_DIR}`,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down...`);
    app
      .close()
      .then(() => telemetry.shutdown())
      .then(
        () => console.log('stopped cleanly'),
        (err: unknown) => {
          console.error(err);
          process.exitCode = 1;
        },
      );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

void main();
