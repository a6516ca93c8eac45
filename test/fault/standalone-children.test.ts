/**
 * Nothing outlives the standalone process (issue 21, item 1; issue 22): `npm start`'s process
 * (dist/standalone.js, no MONGO_URL) keeps its database in-process (node:sqlite), so it starts no
 * child process at all: there is nothing to orphan when it is killed with SIGKILL, which runs no
 * exit handler. (FerretDB, still spawned by tests of the MongoDB adapter, runs under
 * `setpriv --pdeathsig`: libs/common/src/db/ferretdb.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startCompiled, type CompiledServer } from '../harness/compiled';

let server: CompiledServer;

/** Pids of a process's direct children (Linux /proc), with their command lines. */
function childrenOf(pid: number): string[] {
  const out: string[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    for (const child of text ? text.split(/\s+/) : [])
      out.push(`${child} ${readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').join(' ')}`);
  }
  return out;
}

beforeAll(async () => {
  server = await startCompiled();
});
afterAll(() => server?.stop());

test('the standalone process runs no child process, and SIGKILL leaves nothing behind', async () => {
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  expect(childrenOf(server.pid)).toEqual([]);
  server.child.kill('SIGKILL');
  expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(server.alive()).toBe(false);
});
