/**
 * A running job's hold on the slot: renewed every third of the lease; when a renewal finds the
 * lease taken (another replica failed the job after a pause longer than the lease) or renewals
 * keep failing until the lease has lapsed, the job is aborted so it can never end `done`.
 * Progress writes go through here too, at most once a second unless the stage changes.
 */
import type { BackupProgress } from '@agora/common/db';
import type { BackupContext } from './context';

export class JobLease {
  readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  private lastRenewed = Date.now();
  private lastWrite = 0;
  private lastStage = '';
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: BackupContext,
    readonly jobId: string,
    readonly owner: string,
  ) {
    const leaseMs = ctx.config.BACKUP_LEASE_SECONDS * 1000;
    this.timer = setInterval(() => void this.renew(leaseMs), Math.max(500, Math.floor(leaseMs / 3)));
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private async renew(leaseMs: number): Promise<void> {
    if (this.signal.aborted) return;
    try {
      if (await this.ctx.stores.backupJobs.renew(this.jobId, this.owner, leaseMs)) {
        this.lastRenewed = Date.now();
        return;
      }
      this.abort(new Error('lost the job lease to another worker'));
    } catch (err) {
      if (Date.now() - this.lastRenewed > leaseMs)
        this.abort(new Error(`could not renew the job lease: ${(err as Error).message}`));
    }
  }

  abort(reason: Error): void {
    if (!this.signal.aborted) this.controller.abort(reason);
  }

  /** Throws the abort reason when the job must stop. */
  check(): void {
    if (this.signal.aborted) throw this.signal.reason as Error;
  }

  /** Writes progress (throttled); never fails the job by itself. */
  progress(p: BackupProgress, force = false): void {
    const now = Date.now();
    if (!force && p.stage === this.lastStage && now - this.lastWrite < 1000) return;
    this.lastWrite = now;
    this.lastStage = p.stage;
    const snapshot = { ...p, pct: Math.max(0, Math.min(100, Math.round(p.pct))), counts: { ...p.counts } };
    this.pending = this.pending
      .then(() => this.ctx.stores.backupJobs.setProgress(this.jobId, this.owner, snapshot))
      .catch((err: Error) =>
        this.ctx.logger.warn({ err: err.message, job: this.jobId }, 'progress write failed'),
      );
  }

  /** Waits for queued progress writes (before the final state is written). */
  async flush(): Promise<void> {
    await this.pending;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
