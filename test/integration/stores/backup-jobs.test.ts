/**
 * BackupJobsStore on both engines (issue 22): one job in flight however many admins queue at
 * once, one worker leasing it however many receive it, the job ended only by the worker that
 * still owns it, and the sweeper's view of a slot left by a crash (expired, orphaned, stale).
 */
import { BACKUP_JOBS, BACKUP_LEASE, BackupJobsStore, type BackupJobRecord } from '@agora/common/db';
import type { Collection, CollectionSpec, Doc, Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const ROOT = '@root@social.test';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The engine, except that the process "dies" (every write throws) after `writes` writes. */
function crashingAfter(engine: Engine, writes: number): Engine {
  let left = writes;
  const WRITES = new Set([
    'insertOne',
    'insertMany',
    'updateOne',
    'findOneAndUpdate',
    'updateMany',
    'deleteOne',
  ]);
  return {
    ...engine,
    collection<T extends Doc>(spec: CollectionSpec): Collection<T> {
      const real = engine.collection<T>(spec);
      return new Proxy(real, {
        get(target, prop, receiver) {
          const v: unknown = Reflect.get(target, prop, receiver);
          if (typeof v !== 'function' || !WRITES.has(String(prop))) return v;
          return (...args: unknown[]) => {
            if (left-- <= 0) return Promise.reject(new Error('crash'));
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    },
  };
}

describe.each(engineFixtures())('BackupJobsStore on $name', (fx) => {
  let engine: Engine;
  let store: BackupJobsStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([BACKUP_JOBS, BACKUP_LEASE]);
    store = new BackupJobsStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  /** Ends whatever is in flight, so each case starts with a free slot. */
  afterEach(async () => {
    const job = await store.inFlight();
    if (job) await store.fail(job._id, null, 'test cleanup');
    expect(await store.inspect(0)).toEqual({ state: 'free' });
  });

  /** One pass of a worker's sweeper (services/backup/src/worker.ts), without taking jobs. */
  const sweep = async (graceMs = 60_000) => {
    const s = await store.inspect(graceMs);
    if (s.state === 'expired') await store.failExpired(s.jobId, s.owner, s.until, 'worker lost');
    else if (s.state === 'stale') await store.releaseStale(s.jobId);
    await store.failUnqueued(graceMs);
  };

  const queued = async (): Promise<BackupJobRecord> => {
    const q = await store.queue('backup', ROOT);
    if (!('job' in q)) throw new Error('the slot is taken');
    return q.job;
  };

  it('of ten concurrent queue calls exactly one job is queued; the others name it and leave nothing', async () => {
    const before = (await store.newest(100)).length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.queue(i % 2 ? 'backup' : 'restore', ROOT)),
    );
    const jobs = answers.flatMap((a) => ('job' in a ? [a.job] : []));
    expect(jobs).toHaveLength(1);
    const job = jobs[0]!;
    expect(job).toMatchObject({
      status: 'pending',
      requestedBy: ROOT,
      progress: { stage: 'queued', pct: 0, counts: {} },
    });
    expect(job._id).toMatch(/^[0-9a-f]{24}$/);
    expect(job.createdAt).toBeInstanceOf(Date);
    for (const a of answers) if ('conflict' in a) expect(a.conflict?._id).toBe(job._id);
    expect((await store.newest(100)).length).toBe(before + 1);
    expect((await store.inFlight())?._id).toBe(job._id);
  });

  it('the slot: one of five workers leases it; a lapsed lease fails the job and frees the queue', async () => {
    const id = (await queued())._id;
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, (_, i) => store.acquire(id, `worker-${i}`, 50)),
    );
    expect(outcomes.filter((o) => o === 'acquired')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'held')).toHaveLength(4);
    const owner = `worker-${outcomes.indexOf('acquired')}`;
    const running = await store.findById(id);
    expect(running).toMatchObject({ status: 'running', owner });
    expect(running!.startedAt).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 80));
    const seen = await store.inspect(10_000);
    expect(seen).toMatchObject({ state: 'expired', jobId: id, owner });
    if (seen.state !== 'expired') return;
    expect(seen.until).toBeInstanceOf(Date);
    expect(await store.failExpired(seen.jobId, seen.owner, seen.until, 'worker lost')).toBe(true);
    expect(await store.failExpired(seen.jobId, seen.owner, seen.until, 'worker lost')).toBe(false);
    // The dead worker, had it survived, can no longer end the job as done.
    expect(await store.finish(id, owner, {})).toBe(false);
    expect(await store.renew(id, owner, 50)).toBe(false);
    expect(await store.findById(id)).toMatchObject({ status: 'failed', error: 'worker lost' });
    expect('job' in (await store.queue('backup', ROOT))).toBe(true);
  });

  it.each([1, 2])(
    'a sweeper that dies after %i of its writes failing a lapsed job leaves what the next sweep repairs',
    async (writes) => {
      const id = (await queued())._id;
      expect(await store.acquire(id, 'w-dead', 20)).toBe('acquired');
      await sleep(40);
      const seen = await store.inspect(60_000);
      if (seen.state !== 'expired') throw new Error(`expected an expired lease, got ${seen.state}`);
      const dying = new BackupJobsStore(crashingAfter(engine, writes));
      await expect(dying.failExpired(seen.jobId, seen.owner, seen.until, 'worker lost')).rejects.toThrow(
        'crash',
      );
      // The dead worker, back from a pause, can no longer renew.
      expect(await store.renew(id, 'w-dead', 60_000)).toBe(false);
      await sweep();
      expect(await store.findById(id)).toMatchObject({ status: 'failed', error: 'worker lost' });
      expect(await store.slot()).toEqual({ jobId: null, owner: null, until: null });
    },
  );

  it('an API that dies between creating a job and holding the slot leaves no job pending forever', async () => {
    const dying = new BackupJobsStore(crashingAfter(engine, 1));
    await expect(dying.queue('backup', ROOT)).rejects.toThrow('crash');
    const [left] = await store.newest(1);
    expect(left).toMatchObject({ status: 'pending' });
    // Another job queues meanwhile (the slot was never taken) and keeps running through the sweep.
    const other = await queued();
    await sleep(5);
    await sweep(1);
    expect(await store.findById(left!._id)).toMatchObject({ status: 'failed' });
    expect(await store.findById(other._id)).toMatchObject({ status: 'pending' });
    expect((await store.inFlight())?._id).toBe(other._id);
  });

  it('records progress and a result only for the owner; finish frees the slot', async () => {
    const id = (await queued())._id;
    expect(await store.acquire(id, 'w1', 60_000)).toBe('acquired');
    expect(await store.renew(id, 'w1', 60_000)).toBe(true);
    await store.setProgress(id, 'w1', { stage: 'documents', pct: 40, counts: { posts: 3 } });
    await store.setProgress(id, 'other', { stage: 'stolen', pct: 99, counts: {} });
    await store.setResult(id, 'w1', { replaced: ['posts'] });
    expect(await store.findById(id)).toMatchObject({
      progress: { stage: 'documents', pct: 40, counts: { posts: 3 } },
      result: { replaced: ['posts'] },
    });
    expect(await store.finish(id, 'other', {})).toBe(false);
    expect(
      await store.finish(id, 'w1', {
        archiveKey: 'backups/a.tar.gz',
        archiveSize: 10,
        archiveSha256: undefined,
      }),
    ).toBe(true);
    const done = await store.findById(id);
    expect(done).toMatchObject({ status: 'done', archiveKey: 'backups/a.tar.gz', archiveSize: 10 });
    expect(done).not.toHaveProperty('archiveSha256');
    expect(done!.finishedAt).toBeInstanceOf(Date);
    expect(await store.slot()).toEqual({ jobId: null, owner: null, until: null });
  });

  it('a job no worker took is orphaned after the grace; one that ended with the slot held is stale', async () => {
    const id = (await queued())._id;
    expect(await store.inspect(60_000)).toEqual({ state: 'busy' });
    await new Promise((r) => setTimeout(r, 5));
    expect(await store.inspect(1)).toEqual({ state: 'orphaned', jobId: id });
    // A crash between the job's end and the slot's release leaves the slot naming an ended job:
    // staged below the store, through the port itself.

    await engine.collection(BACKUP_JOBS).updateOne({ _id: id }, { $set: { status: 'done' } });
    expect(await store.inspect(60_000)).toEqual({ state: 'stale', jobId: id });
    // The next queue call treats it as free.
    const next = await queued();
    expect(next._id).not.toBe(id);
  });

  it('lists the newest first; finds only real ids; removes only ended jobs', async () => {
    const a = await queued();
    await store.fail(a._id, null, 'x');
    await new Promise((r) => setTimeout(r, 2));
    const b = await queued();
    const newest = await store.newest(2);
    expect(newest.map((j) => j._id)).toEqual([b._id, a._id]);
    for (const bad of ['000000000000000000000000', 'not-an-id', '{"$gt":""}', `${b._id}0`])
      expect(await store.findById(bad)).toBeNull();
    await store.remove(b._id); // still pending: kept
    expect(await store.findById(b._id)).not.toBeNull();
    await store.remove(a._id);
    expect(await store.findById(a._id)).toBeNull();
  });
});
