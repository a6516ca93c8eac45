/**
 * Writes web/src/api/schema.d.ts (the web app's API types) from the OpenAPI document the
 * gateway serves at GET /openapi.json, with openapi-typescript. The document is read from a
 * standalone server started here on SQLite in a temporary directory (nothing else is needed).
 * With `--check` it writes nothing and exits 1 when the file is not current (`npm run check`
 * runs that, so a route schema change without regenerated types fails CI).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { loadConfig } from '@agora/common/config';
import { startStandalone } from '@agora/standalone';

const TARGET = join(__dirname, '..', 'web', 'src', 'api', 'schema.d.ts');
const HEADER = [
  '/**',
  ' * Generated from GET /openapi.json by scripts/gen-api-types.ts (`npm run api:types`);',
  ' * do not edit by hand. The web code imports these through ./types.ts.',
  ' */',
  '',
].join('\n');

async function currentDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agora-openapi-'));
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      DOMAIN: 'api.test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
    },
  );
  const server = await startStandalone(config);
  try {
    const res = await fetch(`${server.url}/openapi.json`);
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
    return await res.json();
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const doc = await currentDocument();
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0], { alphabetize: true });
  const options = (await resolveConfig(TARGET)) ?? {};
  const text = await format(HEADER + astToString(ast), { ...options, filepath: TARGET });
  if (!process.argv.includes('--check')) {
    writeFileSync(TARGET, text);
    return;
  }
  let current = '';
  try {
    current = readFileSync(TARGET, 'utf8');
  } catch {
    // A missing file is just out of date.
  }
  if (current !== text) {
    console.error(
      'web/src/api/schema.d.ts does not match GET /openapi.json: run `npm run api:types` and commit the result',
    );
    process.exitCode = 1;
  }
}

main().then(
  () => process.exit(),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
