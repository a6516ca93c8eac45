/**
 * `npm run backup` / `npm run restore -- <file>`: backups for operators without the web app,
 * through the server's own API (/admin/backup), with a progress bar on the terminal.
 *
 *   npm run backup -- [--url http://localhost:8080] [--out DIR]
 *   npm run restore -- backup-2026-11-26T05-34-05-123Z.tar.gz [--url ...]
 *
 * Credentials: --token or AGORA_TOKEN (an admin's token), or --username/--password (default
 * ADMIN_USERNAME/ADMIN_PASSWORD). With a username and password the CLI logs in again when a
 * restore swaps the server's signing keys under its token.
 */
import { createWriteStream, openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { flow } from '@agora/common/streams';

interface Job {
  id: string;
  type: string;
  status: 'pending' | 'running' | 'done' | 'failed';
  progress?: { stage?: string; pct?: number; counts?: Record<string, number> };
  error?: string | null;
  archiveName?: string | null;
  result?: Record<string, unknown> | null;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: 'string', default: process.env.AGORA_URL ?? 'http://localhost:8080' },
    token: { type: 'string', default: process.env.AGORA_TOKEN },
    username: { type: 'string', default: process.env.ADMIN_USERNAME },
    password: { type: 'string', default: process.env.ADMIN_PASSWORD },
    out: { type: 'string', default: '.' },
  },
});
const base = values.url.replace(/\/+$/, '');
const tty = process.stderr.isTTY;

function fail(message: string): never {
  if (tty) process.stderr.write('\n');
  console.error(`error: ${message}`);
  process.exit(1);
}

async function login(): Promise<string> {
  if (!values.username || !values.password)
    fail('give --token (or AGORA_TOKEN), or --username and --password (or ADMIN_USERNAME/ADMIN_PASSWORD)');
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username: values.username, password: values.password }),
  });
  const body = (await res.json().catch(() => ({}))) as { token?: string; error?: string };
  if (res.status !== 200 || !body.token) fail(`login failed: ${res.status} ${body.error ?? ''}`);
  return body.token;
}

let token = values.token ?? '';

async function api(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    ...init,
    method,
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });
}

/** `[#########-----------]  45% objects  objects 12 · bytes 4.1 MB` on one refreshed line. */
function draw(job: Job, last: { line: string }): void {
  const pct = Math.max(0, Math.min(100, Math.round(job.progress?.pct ?? 0)));
  const width = 30;
  const filled = Math.round((pct / 100) * width);
  const counts = Object.entries(job.progress?.counts ?? {})
    .map(([k, v]) => `${k} ${k === 'bytes' ? `${(v / 1024 / 1024).toFixed(1)} MB` : v}`)
    .join(' · ');
  const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${job.progress?.stage ?? job.status}${counts ? `  ${counts}` : ''}`;
  if (line === last.line) return;
  last.line = line;
  if (tty) process.stderr.write(`\r\x1b[2K${line}`);
  else process.stderr.write(`${line}\n`);
}

/** Follows a job to its end; logs in again when a restore made the token invalid. */
async function follow(id: string): Promise<Job> {
  const last = { line: '' };
  for (;;) {
    const res = await api('GET', `/admin/backup/${id}`);
    if ((res.status === 401 || res.status === 403) && values.username && values.password) {
      token = await login().catch(() => token);
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    if (res.status !== 200) fail(`GET /admin/backup/${id}: ${res.status} ${await res.text()}`);
    const { job } = (await res.json()) as { job: Job };
    draw(job, last);
    if (job.status === 'done' || job.status === 'failed') {
      if (tty) process.stderr.write('\n');
      return job;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function queued(res: Response): Promise<Job> {
  const body = (await res.json().catch(() => ({}))) as { job?: Job; error?: string };
  if (res.status === 409) fail(`${body.error ?? 'a job is in flight'} (job ${body.job?.id ?? '?'})`);
  if (res.status !== 202 || !body.job) fail(`${res.status} ${body.error ?? ''}`);
  return body.job;
}

async function backup(): Promise<void> {
  const job = await follow((await queued(await api('POST', '/admin/backup'))).id);
  if (job.status !== 'done') fail(`backup failed: ${job.error ?? 'unknown reason'}`);
  const res = await api('GET', `/admin/backup/${job.id}/download`);
  if (res.status !== 200 || !res.body) fail(`download: ${res.status}`);
  const file = resolve(join(values.out, job.archiveName ?? `${job.id}.tar.gz`));
  await flow([res.body as AsyncIterable<Uint8Array>, createWriteStream(file)]);
  console.log(file);
}

async function restore(path: string | undefined): Promise<void> {
  if (!path) fail('usage: npm run restore -- <archive.tar.gz>');
  const size = (await stat(path).catch(() => fail(`${path}: no such file`))).size;
  process.stderr.write(`uploading ${basename(path)} (${(size / 1024 / 1024).toFixed(1)} MB)\n`);
  const form = new FormData();
  // openAsBlob reads the file as it is sent: never the whole archive in memory.
  form.append('archive', await openAsBlob(path, { type: 'application/gzip' }), basename(path));
  const job = await follow((await queued(await api('POST', '/admin/backup/restore', { body: form }))).id);
  if (job.status !== 'done') fail(`restore failed: ${job.error ?? 'unknown reason'}`);
  console.log(JSON.stringify(job.result ?? {}));
}

async function main(): Promise<void> {
  const [command, ...rest] = positionals;
  if (!token) token = await login();
  if (command === 'backup') return backup();
  if (command === 'restore') return restore(rest[0]);
  fail('usage: backup-cli.ts backup|restore [<file>]');
}

void main().catch((err: unknown) => fail((err as Error).message));
