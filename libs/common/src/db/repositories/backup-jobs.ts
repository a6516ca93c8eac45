/**
 * Backup and restore jobs and the slot that allows one job in flight across every API and
 * worker replica (decisions.md §8). Written over the engine port (ADR 0013), with no
 * transactions: the slot is one document changed by conditional single-document updates
 * (compare-and-set on the values read), atomic on both engines.
 *
 * Life of a job: the API creates it `pending` and claims the slot for it (or answers 409); a
 * worker leases the slot (owner + until), sets the job `running`, renews the lease while it
 * works, and ends the job `done` or `failed` only while it still owns it, then frees the slot.
 * A worker that dies stops renewing: once `until` has passed, any worker's sweeper fails the
 * job (its partial archive is never `done`) and frees the slot. Writes are ordered so that a
 * crash between two of them leaves what the sweeper or the next `queue` repairs: a slot naming a
 * job that ended or vanished counts as free.
 */
import { randomBytes } from 'node:crypto';
import type { Collection, CollectionSpec, Engine, Value } from '../engine/port';
import { DuplicateKeyError } from '../engine/port';

export const BACKUP_JOB_TYPES = ['backup', 'restore'] as const;
export type BackupJobType = (typeof BACKUP_JOB_TYPES)[number];
export const BACKUP_JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type BackupJobStatus = (typeof BACKUP_JOB_STATUSES)[number];

const SLOT = 'slot';

export interface BackupProgress {
  stage: string;
  pct: number;
  counts: Record<string, number>;
}

export interface BackupJobRecord {
  /** 24 hex digits, time-ordered (the API's job id). */
  _id: string;
  type: BackupJobType;
  status: BackupJobStatus;
  /** The admin who asked for it (restore keeps this user an admin). */
  requestedBy: string;
  /** Written as the job goes; `counts` names any collection. */
  progress: BackupProgress;
  /** Backup: where the finished archive is. Restore: the uploaded archive it reads. */
  archiveKey?: string;
  archiveName?: string;
  archiveSize?: number;
  archiveSha256?: string;
  /** The worker (process id + random) running it; the final write is conditional on it. */
  owner?: string;
  startedAt?: Date;
  finishedAt?: Date;
  error?: string;
  /** Restore: what it changed (collections replaced or dropped, objects written or deleted). */
  result?: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/** What a finished job records besides its status. */
export type FinishedFields = Partial<
  Pick<BackupJobRecord, 'archiveKey' | 'archiveName' | 'archiveSize' | 'archiveSha256' | 'progress'>
> & { result?: object };

/**
 * The slot: one document (`_id: 'slot'`) naming the job in flight, the worker holding it and
 * until when. Claimed by the API when a job is queued (so two admins cannot queue two jobs),
 * leased by the worker that runs it, renewed while it runs, released when it ends.
 */
interface SlotRow extends SlotState {
  _id: string;
}

export interface SlotState {
  jobId: string | null;
  owner: string | null;
  until: Date | null;
}

export const BACKUP_JOBS: CollectionSpec = {
  name: 'backup_jobs',
  indexes: [
    { fields: [['createdAt', -1]], serves: 'newest: GET /admin/backup, the newest jobs first' },
    {
      fields: [
        ['status', 1],
        ['createdAt', 1],
      ],
      serves: 'failUnqueued: pending jobs older than the grace (the sweeper)',
    },
  ],
  dates: ['createdAt', 'updatedAt', 'startedAt', 'finishedAt'],
};

export const BACKUP_LEASE: CollectionSpec = {
  name: 'backup_lease',
  // One document, read and written by `_id`.
  indexes: [],
  dates: ['until'],
};

/** Collections that belong to the backup machinery itself: never archived, never replaced. */
export const BACKUP_OWN_COLLECTIONS: readonly string[] = [BACKUP_JOBS.name, BACKUP_LEASE.name];

/** `<pid>-<random>`: tells replicas apart in logs and job records. */
export function newWorkerId(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** A job id: the time in 12 hex digits, then 12 random ones (ordered like the creation times). */
function newJobId(now: Date): string {
  return now.getTime().toString(16).padStart(12, '0') + randomBytes(6).toString('hex');
}

const JOB_ID = /^[0-9a-f]{24}$/;
/** Marks the owner of a lease a sweeper has taken back (failExpired). */
const REVOKED = 'revoked:';
const LIVE: BackupJobStatus[] = ['pending', 'running'];

export class BackupJobsStore {
  private readonly jobs: Collection<BackupJobRecord>;
  private readonly lease: Collection<SlotRow>;

  constructor(engine: Engine) {
    this.jobs = engine.collection<BackupJobRecord>(BACKUP_JOBS);
    this.lease = engine.collection<SlotRow>(BACKUP_LEASE);
  }

  /** A job by its id (null for anything that is not one: the id comes from a URL). */
  async findById(id: string): Promise<BackupJobRecord | null> {
    if (!JOB_ID.test(String(id))) return null;
    return this.jobs.findOne({ _id: String(id) });
  }

  /** GET /admin/backup: the newest jobs first. */
  newest(limit = 20): Promise<BackupJobRecord[]> {
    return this.jobs.find(
      {},
      {
        sort: [
          ['createdAt', -1],
          ['_id', -1],
        ],
        limit,
      },
    );
  }

  async slot(): Promise<SlotState> {
    const s = await this.lease.findOne({ _id: SLOT });
    return { jobId: s?.jobId ?? null, owner: s?.owner ?? null, until: s?.until ?? null };
  }

  /** The job holding the slot, if it is still pending or running. */
  async inFlight(): Promise<BackupJobRecord | null> {
    const { jobId } = await this.slot();
    if (!jobId) return null;
    const job = await this.findById(jobId);
    return job && (job.status === 'pending' || job.status === 'running') ? job : null;
  }

  /**
   * Creates a pending job and claims the slot for it; when another job holds the slot the new
   * job is removed again and `{ conflict }` names the one in flight.
   */
  async queue(
    type: BackupJobType,
    requestedBy: string,
    fields: { archiveKey?: string; archiveName?: string; archiveSize?: number } = {},
  ): Promise<{ job: BackupJobRecord } | { conflict: BackupJobRecord | null }> {
    const now = new Date();
    const jobId = newJobId(now);
    await this.jobs.insertOne({
      _id: jobId,
      type,
      status: 'pending',
      requestedBy,
      progress: { stage: 'queued', pct: 0, counts: {} },
      ...fields,
      createdAt: now,
      updatedAt: now,
    });
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.claimSlot(jobId)) return { job: (await this.findById(jobId))! };
      // A slot naming a job that ended or vanished (a crash between its end and the release)
      // is free: release it and try once more.
      const held = await this.slot();
      const holder = held.jobId ? await this.findById(held.jobId) : null;
      if (holder && (holder.status === 'pending' || holder.status === 'running')) {
        await this.jobs.deleteOne({ _id: jobId });
        return { conflict: holder };
      }
      await this.lease.updateOne({ _id: SLOT, jobId: held.jobId }, { $set: free() });
    }
    await this.jobs.deleteOne({ _id: jobId });
    return { conflict: await this.inFlight() };
  }

  private async claimSlot(jobId: string): Promise<boolean> {
    const res = await this.lease.updateOne(
      { _id: SLOT, jobId: null },
      { $set: { jobId, owner: null, until: null } },
    );
    if (res.matched === 1) return true;
    try {
      await this.lease.insertOne({ _id: SLOT, jobId, owner: null, until: null });
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  /**
   * A worker takes the job: leases the slot and sets the job running. `held` when a live
   * worker owns it (a redelivered message), `gone` when the job is no longer the one in
   * flight or no longer pending.
   */
  async acquire(jobId: string, owner: string, leaseMs: number): Promise<'acquired' | 'held' | 'gone'> {
    const until = new Date(Date.now() + leaseMs);
    const leased = await this.lease.updateOne({ _id: SLOT, jobId, owner: null }, { $set: { owner, until } });
    if (leased.matched === 0) {
      const s = await this.slot();
      return s.jobId === jobId ? 'held' : 'gone';
    }
    const now = new Date();
    const started = await this.jobs.updateOne(
      { _id: jobId, status: 'pending' },
      { $set: { status: 'running', owner, startedAt: now, updatedAt: now } },
    );
    if (started.matched === 1) return 'acquired';
    await this.release(jobId, owner);
    return 'gone';
  }

  /** Extends the lease; false when this worker no longer owns it (it must stop at once). */
  async renew(jobId: string, owner: string, leaseMs: number): Promise<boolean> {
    const res = await this.lease.updateOne(
      { _id: SLOT, jobId, owner },
      { $set: { until: new Date(Date.now() + leaseMs) } },
    );
    return res.matched === 1;
  }

  async setProgress(jobId: string, owner: string, progress: BackupProgress): Promise<void> {
    await this.jobs.updateOne(
      { _id: jobId, owner, status: 'running' },
      { $set: { progress: progress as unknown as Value, updatedAt: new Date() } },
    );
  }

  /** Records what a restore changed so far (kept even if it fails later). */
  async setResult(jobId: string, owner: string, result: object): Promise<void> {
    await this.jobs.updateOne(
      { _id: jobId, owner, status: 'running' },
      { $set: { result: result as Value, updatedAt: new Date() } },
    );
  }

  /** Ends the job `done` if this worker still runs it; false otherwise (it was taken over). */
  async finish(jobId: string, owner: string, fields: FinishedFields): Promise<boolean> {
    const now = new Date();
    const res = await this.jobs.updateOne(
      { _id: jobId, owner, status: 'running' },
      {
        $set: {
          ...(fields as Record<string, Value | undefined>),
          status: 'done',
          finishedAt: now,
          updatedAt: now,
        },
      },
    );
    await this.release(jobId, owner);
    return res.matched === 1;
  }

  /** Ends the job `failed` (by its worker, or by the API when the job could not be queued). */
  async fail(jobId: string, owner: string | null, error: string): Promise<void> {
    await this.markFailed(jobId, owner, error);
    await this.release(jobId, owner);
  }

  private async release(jobId: string, owner: string | null): Promise<void> {
    await this.lease.updateOne({ _id: SLOT, jobId, ...(owner ? { owner } : {}) }, { $set: free() });
  }

  /** A live job (of this owner, when given) becomes `failed`. */
  private async markFailed(jobId: string, owner: string | null, error: string): Promise<void> {
    const now = new Date();
    await this.jobs.updateOne(
      { _id: jobId, status: { $in: LIVE }, ...(owner ? { owner } : {}) },
      { $set: { status: 'failed', error, finishedAt: now, updatedAt: now } },
    );
  }

  /**
   * The sweeper's look at the slot. `expired`: its worker stopped renewing (crashed, killed,
   * cut off); `orphaned`: pending for longer than `graceMs` with no worker (its message was
   * lost, e.g. the in-process bus of a process that stopped); `stale`: the job ended or vanished
   * but the slot was not freed.
   */
  async inspect(
    graceMs: number,
  ): Promise<
    | { state: 'free' | 'busy' }
    | { state: 'expired'; jobId: string; owner: string; until: Date }
    | { state: 'orphaned' | 'stale'; jobId: string }
  > {
    const s = await this.slot();
    if (!s.jobId) return { state: 'free' };
    const job = await this.findById(s.jobId);
    if (!job || job.status === 'done' || job.status === 'failed') return { state: 'stale', jobId: s.jobId };
    if (s.owner && s.until && s.until.getTime() < Date.now())
      return { state: 'expired', jobId: s.jobId, owner: s.owner, until: s.until };
    if (!s.owner && job.createdAt.getTime() < Date.now() - graceMs)
      return { state: 'orphaned', jobId: s.jobId };
    return { state: 'busy' };
  }

  /**
   * Fails a job whose worker's lease lapsed and frees the slot, unless the worker renewed
   * meanwhile. Three writes, each leaving a state the next sweep finishes if this process dies
   * after it: the lease is revoked first (compare-and-set on the lease read, so a renewal wins
   * and the worker's next renewal fails: it stops), the job is failed, the slot is freed. A
   * revoked lease reads as lapsed (`expired`), a failed job with the slot held as `stale`.
   */
  async failExpired(jobId: string, owner: string, until: Date, error: string): Promise<boolean> {
    const revoked = owner.startsWith(REVOKED) ? owner : `${REVOKED}${owner}`;
    const taken = await this.lease.updateOne(
      { _id: SLOT, jobId, owner, until },
      { $set: { owner: revoked } },
    );
    if (taken.matched === 0) return false;
    await this.markFailed(jobId, null, error);
    await this.lease.updateOne({ _id: SLOT, jobId, owner: revoked }, { $set: free() });
    return true;
  }

  /**
   * Fails pending jobs older than `graceMs` that do not hold the slot: the API died between
   * creating one and claiming the slot for it (or before removing one that lost the slot), so no
   * worker will ever run it. Queueing takes milliseconds, so the grace spares every live one.
   * Returns how many it failed.
   */
  async failUnqueued(graceMs: number): Promise<number> {
    const cutoff = new Date(Date.now() - graceMs);
    const old = await this.jobs.find(
      { status: 'pending', createdAt: { $lt: cutoff } },
      { sort: [['createdAt', 1]], limit: 100, fields: ['_id'] },
    );
    if (!old.length) return 0;
    const { jobId } = await this.slot();
    const dead = old.filter((j) => j._id !== jobId);
    for (const j of dead)
      await this.markFailed(j._id, null, 'the job was never queued (the API stopped while queueing it)');
    return dead.length;
  }

  /** Frees a slot left naming a job that already ended. */
  async releaseStale(jobId: string): Promise<void> {
    await this.lease.updateOne({ _id: SLOT, jobId }, { $set: free() });
  }

  /**
   * Backup retention (BACKUP_KEEP): the finished backups with an archive, newest first, past
   * the newest `keep`. Bounded: retention runs after every backup, so few are ever past it.
   */
  async backupsBeyond(keep: number): Promise<BackupJobRecord[]> {
    const done = await this.jobs.find(
      { status: 'done' },
      {
        sort: [
          ['createdAt', -1],
          ['_id', -1],
        ],
        limit: keep + 1000,
      },
    );
    return done.filter((j) => j.type === 'backup' && j.archiveKey).slice(keep);
  }

  /** DELETE /admin/backup/:id: only jobs that ended (the caller deletes the archive first). */
  async remove(id: string): Promise<void> {
    if (JOB_ID.test(id)) await this.jobs.deleteOne({ _id: id, status: { $in: ['done', 'failed'] } });
  }
}

/** The slot naming no job. */
function free() {
  return { jobId: null, owner: null, until: null };
}
