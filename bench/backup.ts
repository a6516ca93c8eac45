/**
 * Backup worker memory (quality-bars: "memory stays flat while archiving"): a real worker
 * process (`services/backup/src/main.ts`) archives a database plus a store of incompressible
 * objects (disk adapter), once with a small store and once with a large one (≥ 1 GB by
 * default); its peak RSS (the kernel's VmHWM) is read from /proc. Flat means the peak does not
 * grow with the store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import mongoose from 'mongoose';
import { createStores, connectDatabase } from '@agora/common/db';
import { createLogger } from '@agora/common/logger';
import { createBus } from '@agora/common/messaging';
import { createDiskStorage } from '@agora/common/storage';
import { BACKUP_RUN_QUEUE } from '@agora/common/messaging';
import { createVhost } from '../test/harness/env';

const MiB = 1024 * 1024;
const OBJECT_MB = 8;

function kb(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) : 0;
}

function memory(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rssMb: kb(status, 'VmRSS') / 1024, peakMb: kb(status, 'VmHWM') / 1024 };
}

async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '..', 'services', 'backup', 'src', 'main.ts')],
    { env: { ...process.env, ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (l) => {
      if (l.includes('backup worker ready')) resolve();
    });
    child.once('exit', (c) => reject(new Error(`backup worker exited ${c}`)));
  });
  return child;
}

/** One run: seeds `storeMb` of objects and `docs` documents, archives them, reports the worker's memory. */
async function run(mongoBase: string, storeMb: number, docs: number) {
  const stamp = Date.now().toString(36);
  const dataDir = await mkdtemp(join(tmpdir(), 'agora-bench-backup-'));
  const mongoUrl = `${mongoBase}bench_backup_${stamp}`;
  const vhost = await createVhost(`bench_backup_${stamp}`);
  const amqpUrl = vhost.url;
  const logger = createLogger({ level: 'silent', service: 'bench' });
  const storage = createDiskStorage({ root: join(dataDir, 'objects') });
  await storage.ensureBucket();
  for (let i = 0; i < Math.ceil(storeMb / OBJECT_MB); i++)
    await storage.put(`files/bench/${i}.bin`, randomBytes(OBJECT_MB * MiB));
  const conn = await mongoose.createConnection(mongoUrl).asPromise();
  for (let i = 0; i < docs; i += 1000)
    await conn.db!.collection('bench_docs').insertMany(
      Array.from({ length: Math.min(1000, docs - i) }, (_, j) => ({
        n: i + j,
        at: new Date(),
        text: randomBytes(200).toString('base64'),
      })),
    );
  await conn.close();

  const worker = await startWorker({
    MONGO_URL: mongoUrl,
    AMQP_URL: amqpUrl,
    DATA_DIR: dataDir,
    DOMAIN: 'bench.test',
    BACKUP_LEASE_SECONDS: '10',
  });
  const idle = memory(worker.pid!);
  const db = await connectDatabase({ url: mongoUrl, logger });
  const repos = createStores(db, 'bench.test');
  const bus = createBus({ url: amqpUrl, logger, service: 'bench' });
  const queued = await repos.backupJobs.queue('backup', 'bench');
  if ('conflict' in queued) throw new Error('a job is in flight');
  const jobId = queued.job._id;
  const t0 = Date.now();
  await bus.enqueue(BACKUP_RUN_QUEUE, { jobId }, { id: jobId });
  let maxSampled = 0;
  let job = queued.job;
  while (job.status === 'pending' || job.status === 'running') {
    await new Promise((r) => setTimeout(r, 200));
    maxSampled = Math.max(maxSampled, memory(worker.pid!).rssMb);
    job = (await repos.backupJobs.findById(jobId))!;
  }
  const seconds = (Date.now() - t0) / 1000;
  const peak = memory(worker.pid!).peakMb;
  worker.kill('SIGTERM');
  await bus.close();
  await db.conn?.db?.dropDatabase();
  await db.close();
  await vhost.remove();
  await rm(dataDir, { recursive: true, force: true });
  if (job.status !== 'done') throw new Error(`backup ${job.status}: ${job.error ?? ''}`);
  return {
    storeMb,
    docs,
    archiveMb: (job.archiveSize ?? 0) / MiB,
    seconds,
    idleMb: idle.rssMb,
    peakMb: peak,
    sampledMb: maxSampled,
  };
}

export async function benchBackup(opts: { largeMb: number; smallMb: number; docs: number }): Promise<void> {
  const mongoBase = (process.env.TEST_MONGO_URL ?? 'mongodb://127.0.0.1:27117/').replace(/\/?$/, '/');
  console.log(
    `\n## Backup worker memory (disk store of incompressible ${OBJECT_MB} MB objects, ${opts.docs} documents)`,
  );
  for (const storeMb of [opts.smallMb, opts.largeMb]) {
    const r = await run(mongoBase, storeMb, opts.docs);
    console.log(
      `store ${r.storeMb} MB → archive ${r.archiveMb.toFixed(0)} MB in ${r.seconds.toFixed(1)} s: worker RSS idle ${r.idleMb.toFixed(0)} MB, peak (VmHWM) ${r.peakMb.toFixed(0)} MB, peak sampled while archiving ${r.sampledMb.toFixed(0)} MB`,
    );
  }
}
