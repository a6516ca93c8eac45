/**
 * Writes docs/configuration.md from the one config schema (style.md §13). With `--check` it writes
 * nothing and exits 1 when the file differs from what the schema gives (`npm test` runs that, so
 * a schema change without regenerated docs fails CI). The text goes through Prettier with the
 * repository's settings, so the generated file is also what `prettier --check` accepts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { configDocs, configSchema } from '@agora/common/config';

const TARGET = join(__dirname, '..', 'docs', 'configuration.md');

function render(): string {
  const lines = [
    '# Configuration',
    '',
    'Generated from `libs/common/src/config/schema.ts` by `npx tsx scripts/gen-config-docs.ts`; do not edit by hand.',
    'Every service reads these environment variables once at start; a bad value stops the process with a',
    'message naming the variable (exit code 2). Runtime settings (registration, rules, keys, …) live in the',
    'database and are edited through the admin API.',
    '',
    '| Variable | Default | Meaning |',
    '|---|---|---|',
  ];
  for (const [name, schema] of Object.entries(configSchema.shape)) {
    const parsed = (schema as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(
      undefined,
    );
    const shown =
      typeof parsed.data === 'string' || typeof parsed.data === 'number' || typeof parsed.data === 'boolean'
        ? String(parsed.data)
        : '';
    const def = parsed.success && shown !== '' ? `\`${shown}\`` : '—';
    lines.push(`| \`${name}\` | ${def} | ${configDocs[name as keyof typeof configDocs]} |`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const options = (await resolveConfig(TARGET)) ?? {};
  const text = await format(render(), { ...options, filepath: TARGET });
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
      'docs/configuration.md does not match libs/common/src/config/schema.ts: run `npm run docs:config` and commit the result',
    );
    process.exit(1);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
