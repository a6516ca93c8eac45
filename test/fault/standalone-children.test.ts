/**
 * The standalone process owns its children (issue 21, item 1): when it dies, however it dies,
 * its embedded FerretDB stops too. `npm start`'s process (dist/standalone.js, no MONGO_URL, so
 * it spawns FerretDB on SQLite under its data directory) is killed with SIGKILL, which runs no
 * exit handler; the FerretDB it started must be gone a few seconds later.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '@agora/common/db';
import { buildAll, isStale } from '../../scripts/build';
import { testEnv } from '../harness/env';

const ROOT = join(__dirname, '..', '..');
let node: ChildProcess | undefined;
let dataDir: string;

/** Pids of a process's direct children (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (text) out.push(...text.split(/\s+/).map(Number));
  }
  return out;
}

/** Whether `pid` is a live process (a zombie waiting for its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function commandOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
}

beforeAll(async () => {
  if (isStale()) await buildAll();
  dataDir = mkdtempSync(join(tmpdir(), 'agora-children-'));
  const port = await freePort();
  node = spawn(process.execPath, [join(ROOT, 'dist', 'standalone.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DOMAIN: 'social.test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: 'children_admin',
      ADMIN_PASSWORD: 'children-admin-password',
      FERRETDB_BIN: testEnv.ferretdbBin,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  node.stdout?.resume();
  node.stderr?.resume();
  await waitForPort(port, 60_000);
});

afterAll(() => {
  if (node && node.exitCode === null && node.signalCode === null) node.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

test('SIGKILL of the standalone process stops its embedded FerretDB', async () => {
  const ferret = childrenOf(node!.pid!).filter((pid) => commandOf(pid).includes('ferretdb'));
  expect(ferret).toHaveLength(1);
  const pid = ferret[0]!;
  expect(alive(pid)).toBe(true);

  const exited = new Promise((resolve) => node!.once('exit', resolve));
  node!.kill('SIGKILL');
  await exited;

  const deadline = Date.now() + 5_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const survived = alive(pid);
  if (survived) process.kill(pid, 'SIGKILL'); // leave nothing behind, then fail
  expect(survived).toBe(false);
});
