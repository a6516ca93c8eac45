/**
 * Spawns FerretDB as a child process, for tests of the MongoDB adapter that stop and restart a
 * database under a running server (standalone keeps SQLite in its own process: ADR 0013).
 *
 * The child never outlives this process, however it ends (SIGKILL and crashes included): on
 * Linux it is started through util-linux's `setpriv --pdeathsig`, so the kernel sends it SIGTERM
 * when its parent dies; everywhere, an exit hook kills it on a normal exit. Exit hooks alone
 * never run on SIGKILL or an abort, which left FerretDB running as an orphan on the data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';

export interface FerretOptions {
  bin: string;
  /** SQLite: the directory holding the database files. */
  dataDir: string;
  /** PostgreSQL handler instead of SQLite. */
  postgresUrl?: string;
  /**
   * SQLite's `synchronous` setting (FerretDB already sets WAL and a busy timeout). `full`, the
   * default, syncs the log at every commit; `normal` at checkpoints only (ADR 0011).
   */
  sqliteSync?: 'normal' | 'full';
  port?: number;
  onLog?: (line: string) => void;
}

export interface FerretProcess {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Starts it again on the same port and data (after stop). */
  restart(): Promise<void>;
  /** The FerretDB process id while it runs (the bench reads its memory). */
  pid(): number | undefined;
}

/** Whether a listener can bind `port` on the loopback now (the port, or undefined). */
function tryPort(port: number): Promise<number | undefined> {
  return new Promise((res) => {
    const s = createServer();
    s.once('error', () => res(undefined));
    s.listen(port, '127.0.0.1', () => {
      const { port: bound } = s.address() as { port: number };
      s.close(() => res(bound));
    });
  });
}

/** The kernel's range for outgoing connections' local ports (Linux), or the common default. */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (lo && hi && lo < hi) return [lo, hi];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}

/**
 * A port free now, for a server started a moment later. Taken below the kernel's ephemeral range:
 * a port the kernel hands out (listen on 0) is also what it gives outgoing connections as their
 * local port, so between the pick and the bind a client socket could take it (EADDRINUSE, seen
 * with the cluster harness's many processes). Falls back to the kernel's pick.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 20_000;
  for (let attempt = 0; attempt < 50 && ephemeralLow - low > 1000; attempt++) {
    const port = await tryPort(low + Math.floor(Math.random() * (ephemeralLow - low)));
    if (port) return port;
  }
  const port = await tryPort(0);
  if (!port) throw new Error('no free port on 127.0.0.1');
  return port;
}

export async function waitForPort(port: number, timeoutMs: number, host = '127.0.0.1'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((res) => {
      const s = createConnection({ host, port });
      s.once('connect', () => (s.destroy(), res(true)));
      s.once('error', () => res(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** util-linux's setpriv, when this system has it (Linux). */
function findSetpriv(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  // eslint-disable-next-line no-restricted-properties -- PATH is the system's, not configuration
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin'];
  return dirs.map((d) => join(d, 'setpriv')).find((f) => existsSync(f));
}

/**
 * The command that runs `bin` so that it dies with this process: `setpriv --pdeathsig TERM`
 * execs into it (same pid, signals reach it directly) with the parent-death signal set.
 */
export function tiedToParent(bin: string, args: string[]): { command: string; args: string[] } {
  const setpriv = findSetpriv();
  return setpriv
    ? { command: setpriv, args: ['--pdeathsig', 'TERM', '--', bin, ...args] }
    : { command: bin, args };
}

/** Children still running, killed if this process exits normally first (SIGKILL never gets here). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

export async function spawnFerretDB(opts: FerretOptions): Promise<FerretProcess> {
  const bin = resolve(opts.bin);
  if (!existsSync(bin))
    throw new Error(`FerretDB not found at ${bin}: run scripts/infra/ferretdb.sh (npm start does)`);
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const port = opts.port ?? (await freePort());
  let child: ChildProcess | undefined;

  const start = async () => {
    const args = [
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${dataDir}`,
      '--debug-addr=-',
      '--telemetry=disable',
      '--log-level=warn',
      ...(opts.postgresUrl
        ? ['--handler=postgresql', `--postgresql-url=${opts.postgresUrl}`]
        : [
            '--handler=sqlite',
            `--sqlite-url=file:${dataDir}/${opts.sqliteSync ? `?_pragma=synchronous(${opts.sqliteSync})` : ''}`,
          ]),
    ];
    const tied = tiedToParent(bin, args);
    const proc = spawn(tied.command, tied.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    running.add(proc);
    proc.once('exit', () => running.delete(proc));
    const forward = (b: Buffer) =>
      b
        .toString()
        .split('\n')
        .filter(Boolean)
        .forEach((l) => opts.onLog?.(l));
    proc.stdout?.on('data', forward);
    proc.stderr?.on('data', forward);
    const exited = new Promise<never>((_, rej) =>
      proc.once('exit', (code) => rej(new Error(`FerretDB exited with code ${code}`))),
    );
    await Promise.race([waitForPort(port, 30_000), exited]);
    exited.catch(() => undefined);
  };

  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((res) => {
      c.once('exit', () => res());
      c.kill('SIGTERM');
      setTimeout(() => c.kill('SIGKILL'), 5000).unref();
    });
  };

  await start();
  return {
    url: `mongodb://127.0.0.1:${port}/`,
    port,
    stop,
    restart: start,
    pid: () => child?.pid,
  };
}
