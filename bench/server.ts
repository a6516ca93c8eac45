/**
 * The server under benchmark, in its own process (so the load generator does not share its
 * event loop): boots the standalone wiring and prints the gateway and service URLs as JSON.
 */
import { loadConfig } from '@agora/common/config';
import { sqlitePathOf } from '@agora/common/runtime';
import { startStandalone } from '@agora/standalone';

async function main(): Promise<void> {
  const config = loadConfig(process.env, { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error' });
  const app = await startStandalone(config);
  const urls = Object.fromEntries(app.services.filter((s) => s.url).map((s) => [s.name, s.url]));
  // With no MONGO_URL, the SQLite file (a seeder may open it too: SQLite serialises writers).
  const db = config.MONGO_URL ? { mongoUrl: config.MONGO_URL } : { sqlitePath: sqlitePathOf(config) };
  process.stdout.write(`${JSON.stringify({ gateway: app.url, services: urls, ...db })}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
void main();
