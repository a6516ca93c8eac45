/** Child processes of a test's own servers (private Redis, private RabbitMQ). */
import type { ChildProcess } from 'node:child_process';

/** SIGTERM to a child that still runs; resolves once it has exited (at once if it had). */
export async function terminateChild(c: ChildProcess | undefined): Promise<void> {
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise<void>((r) => c.once('exit', () => r()));
  c.kill('SIGTERM');
  await exited;
}
