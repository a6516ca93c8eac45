/**
 * The server under benchmark, in its own process (so the load generator does not share its
 * event loop): boots the standalone wiring and prints the gateway and service URLs as JSON.
 */
import { loadConfig } from '@agora/common/config';
import { startStandalone } from '@agora/standalone';

async function main(): Promise<void> {
  const config = loadConfig(process.env, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error' });
  const app = await startStandalone(config);
  const urls = Object.fromEntries(app.services.filter((s) => s.url).map((s) => [s.name, s.url]));
  // With no MONGO_URL, the embedded FerretDB's address (the scale bench seeds through it).
  const mongoUrl = config.MONGO_URL ?? (app.ferret ? `${app.ferret.url}agora` : undefined);
  process.stdout.write(`${JSON.stringify({ gateway: app.url, services: urls, mongoUrl })}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
void main();
