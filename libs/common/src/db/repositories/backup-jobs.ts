/**
 * Backup and restore jobs and the slot that allows one job in flight across every API and
 * worker replica (decisions.md §8). No transactions: the slot is one document changed by
 * conditional single-document updates, which are atomic on MongoDB and FerretDB alike.
 *
 * Life of a job: the API creates it `pending` and claims the slot for it (or answers 409); a
 * worker leases the slot (owner + until), sets the job `running`, renews the lease while it
 * works, and ends the job `done` or `failed` only while it still owns it, then frees the slot.
 * A worker that dies stops renewing: once `until` has passed, any worker's sweeper fails the
 * job (its partial archive is never `done`) and frees the slot.
 */
import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import type { BackupJobDoc, BackupJobType, Models } from '../models';

const SLOT = 'slot';

export interface BackupProgress {
  stage: string;
  pct: number;
  counts: Record<string, number>;
}

export type BackupJobRecord = BackupJobDoc & {
  _id: Types.ObjectId;
  progress: BackupProgress;
  createdAt: Date;
  updatedAt: Date;
};

export interface SlotState {
  jobId: string | null;
  owner: string | null;
  until: Date | null;
}

/** `<pid>-<random>`: tells replicas apart in logs and job records. */
export function newWorkerId(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

function oid(id: string): Types.ObjectId | null {
  return /^[0-9a-f]{24}$/i.test(id) ? new Types.ObjectId(id) : null;
}

export class BackupJobsRepository {
  constructor(private readonly models: Models) {}

  async findById(id: string): Promise<BackupJobRecord | null> {
    const _id = oid(String(id));
    if (!_id) return null;
    return this.models.BackupJob.findById(_id).lean<BackupJobRecord>();
  }

  /** GET /admin/backup: the newest jobs first. */
  async newest(limit = 20): Promise<BackupJobRecord[]> {
    return this.models.BackupJob.find({})
      .sort({ createdAt: -1, _id: -1 })
      .limit(limit)
      .lean<BackupJobRecord[]>();
  }

  async slot(): Promise<SlotState> {
    const s = await this.models.BackupLease.findById(SLOT).lean();
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
    const created = await this.models.BackupJob.create({ type, requestedBy, ...fields });
    const jobId = created._id.toHexString();
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await this.claimSlot(jobId)) return { job: (await this.findById(jobId))! };
      // A slot naming a job that ended or vanished (a crash between its end and the release)
      // is free: release it and try once more.
      const held = await this.slot();
      const holder = held.jobId ? await this.findById(held.jobId) : null;
      if (holder && (holder.status === 'pending' || holder.status === 'running')) {
        await this.models.BackupJob.deleteOne({ _id: created._id });
        return { conflict: holder };
      }
      await this.models.BackupLease.updateOne({ _id: SLOT, jobId: held.jobId }, { $set: free() });
    }
    await this.models.BackupJob.deleteOne({ _id: created._id });
    return { conflict: await this.inFlight() };
  }

  private async claimSlot(jobId: string): Promise<boolean> {
    const res = await this.models.BackupLease.updateOne(
      { _id: SLOT, jobId: null },
      { $set: { jobId, owner: null, until: null } },
    );
    if (res.matchedCount === 1) return true;
    try {
      await this.models.BackupLease.create({ _id: SLOT, jobId, owner: null, until: null });
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 11000) return false;
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
    const leased = await this.models.BackupLease.updateOne(
      { _id: SLOT, jobId, owner: null },
      { $set: { owner, until } },
    );
    if (leased.matchedCount === 0) {
      const s = await this.slot();
      return s.jobId === jobId ? 'held' : 'gone';
    }
    const started = await this.models.BackupJob.updateOne(
      { _id: oid(jobId), status: 'pending' },
      { $set: { status: 'running', owner, startedAt: new Date() } },
    );
    if (started.matchedCount === 1) return 'acquired';
    await this.release(jobId, owner);
    return 'gone';
  }

  /** Extends the lease; false when this worker no longer owns it (it must stop at once). */
  async renew(jobId: string, owner: string, leaseMs: number): Promise<boolean> {
    const res = await this.models.BackupLease.updateOne(
      { _id: SLOT, jobId, owner },
      { $set: { until: new Date(Date.now() + leaseMs) } },
    );
    return res.matchedCount === 1;
  }

  async setProgress(jobId: string, owner: string, progress: BackupProgress): Promise<void> {
    await this.models.BackupJob.updateOne(
      { _id: oid(jobId), owner, status: 'running' },
      { $set: { progress } },
    );
  }

  /** Records what a restore changed so far (kept even if it fails later). */
  async setResult(jobId: string, owner: string, result: Record<string, unknown>): Promise<void> {
    await this.models.BackupJob.updateOne(
      { _id: oid(jobId), owner, status: 'running' },
      { $set: { result } },
    );
  }

  /** Ends the job `done` if this worker still runs it; false otherwise (it was taken over). */
  async finish(jobId: string, owner: string, fields: Record<string, unknown>): Promise<boolean> {
    const res = await this.models.BackupJob.updateOne(
      { _id: oid(jobId), owner, status: 'running' },
      { $set: { ...fields, status: 'done', finishedAt: new Date() } },
    );
    await this.release(jobId, owner);
    return res.matchedCount === 1;
  }

  /** Ends the job `failed` (by its worker, or by the API when the job could not be queued). */
  async fail(jobId: string, owner: string | null, error: string): Promise<void> {
    await this.models.BackupJob.updateOne(
      { _id: oid(jobId), status: { $in: ['pending', 'running'] }, ...(owner ? { owner } : {}) },
      { $set: { status: 'failed', error, finishedAt: new Date() } },
    );
    await this.release(jobId, owner);
  }

  private async release(jobId: string, owner: string | null): Promise<void> {
    await this.models.BackupLease.updateOne(
      { _id: SLOT, jobId, ...(owner ? { owner } : {}) },
      { $set: free() },
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

  /** Fails a job whose worker's lease lapsed and frees the slot, unless the worker renewed meanwhile. */
  async failExpired(jobId: string, owner: string, until: Date, error: string): Promise<boolean> {
    const freed = await this.models.BackupLease.updateOne(
      { _id: SLOT, jobId, owner, until },
      { $set: free() },
    );
    if (freed.matchedCount === 0) return false;
    await this.models.BackupJob.updateOne(
      { _id: oid(jobId), status: { $in: ['pending', 'running'] } },
      { $set: { status: 'failed', error, finishedAt: new Date() } },
    );
    return true;
  }

  /** Frees a slot left naming a job that already ended. */
  async releaseStale(jobId: string): Promise<void> {
    await this.models.BackupLease.updateOne({ _id: SLOT, jobId }, { $set: free() });
  }

  /** DELETE /admin/backup/:id: only jobs that ended (the caller deletes the archive first). */
  async remove(id: string): Promise<void> {
    const _id = oid(id);
    if (_id) await this.models.BackupJob.deleteOne({ _id, status: { $in: ['done', 'failed'] } });
  }
}

function free(): SlotState {
  return { jobId: null, owner: null, until: null };
}
