/**
 * The browser tier needs what the e2e tier needs, plus Chromium and a current build of web/
 * (both prepared by `npm test`; run here too so `npx jest --selectProjects browser` works alone).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import servicesSetup from '../harness/global-setup';
import { CHROMIUM_PATH } from './harness';

const ROOT = join(__dirname, '..', '..');

export default async function globalSetup(): Promise<void> {
  await servicesSetup();
  if (!existsSync(CHROMIUM_PATH))
    execFileSync('bash', [join(ROOT, 'scripts/infra/chromium.sh')], { stdio: 'inherit' });
  execFileSync('bash', [join(ROOT, 'scripts/infra/web.sh')], { stdio: 'inherit' });
}
