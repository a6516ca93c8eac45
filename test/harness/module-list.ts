/**
 * Reads the module list a process under test writes on SIGUSR2 (test/harness/loaded-modules.ts
 * is preloaded into it): removes the previous list, signals, and waits for the new one.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';

export async function loadedModules(
  child: ChildProcess,
  file: string,
  output: () => string,
): Promise<string[]> {
  rmSync(file, { force: true });
  child.kill('SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`no module list from the process:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** Whether a module of `pkg` (a package name) is in the list. */
export const loadedFrom = (modules: string[], pkg: string) =>
  modules.some((m) => m.includes(`/node_modules/${pkg}/`));
