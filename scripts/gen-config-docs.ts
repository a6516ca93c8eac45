/** Writes docs/configuration.md from the one config schema (style.md §13). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDocs, configSchema } from '../libs/common/src/config';

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
writeFileSync(join(__dirname, '..', 'docs', 'configuration.md'), `${lines.join('\n')}\n`);
