/**
 * Nothing outlives the standalone process (issue 21, item 1; issue 22): `npm start`'s process
 * (dist/standalone.js, no MONGO_URL) keeps its database in-process (node:sqlite), so it starts no
 * child process at all: there is nothing to orphan when it is killed with SIGKILL, which runs no
 * exit handler. (FerretDB, still spawned by tests of the MongoDB adapter, runs under
 * `setpriv --pdeathsig`: libs/common/src/db/ferretdb.ts.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from '@agora/common/db';
import { buildAll, isStale } from '../../scripts/build';

const ROOT = join(__dirname, '..', '..');
let node: ChildProcess | undefined;
let dataDir: string;
let port: number;

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
  port = await freePort();
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

test('the standalone process runs no child process, and SIGKILL leaves nothing behind', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  expect(res.status).toBe(200);
  expect(childrenOf(node!.pid!).map((pid) => `${pid} ${commandOf(pid)}`)).toEqual([]);
  const exited = new Promise((resolve) => node!.once('exit', resolve));
  node!.kill('SIGKILL');
  await exited;
  expect(alive(node!.pid!)).toBe(false);
});
