/**
 * /admin/backup (spec 4.5, decisions.md §8): queue backups and restores for the backup worker,
 * follow them, download and delete archives. One job in flight at a time (409 otherwise).
 */
import type { RequestHandler } from 'express';
import { Router, handler } from '@agora/common/http';
import { AppError, BadRequest, Conflict, NotFound, ServiceUnavailable } from '@agora/common/errors';
import type { BackupJobRecord, BackupJobType } from '@agora/common/db';
import { streamResponse } from '@agora/common/streams';
import { BACKUP_RUN_QUEUE, RESTORE_RUN_QUEUE } from '@agora/common/messaging';
import type { AdminContext } from '../context';
import { presentJob } from './present';
import { restoreUpload, uploadedFile } from './upload';

const IN_FLIGHT = 'A backup or restore job is already in flight';

function busy(job: BackupJobRecord | null): AppError {
  return new AppError(409, IN_FLIGHT, { extra: job ? { job: presentJob(job) } : {} });
}

export function backupRouter(ctx: AdminContext): Router {
  const r = Router();
  const jobs = ctx.stores.backupJobs;

  const load = async (id: string | undefined): Promise<BackupJobRecord> => {
    const job = typeof id === 'string' ? await jobs.findById(id) : null;
    if (!job) throw new NotFound('Backup job not found');
    return job;
  };

  /** Creates the job, holds the slot for it and hands it to the worker. */
  const queue = async (
    type: BackupJobType,
    requestedBy: string,
    fields: { archiveKey?: string; archiveName?: string; archiveSize?: number } = {},
  ): Promise<BackupJobRecord> => {
    const queued = await jobs.queue(type, requestedBy, fields);
    if ('conflict' in queued) throw busy(queued.conflict);
    const jobId = queued.job._id;
    try {
      await ctx.events.enqueue(
        type === 'backup' ? BACKUP_RUN_QUEUE : RESTORE_RUN_QUEUE,
        { jobId },
        // A broker that is away answers 503 at once rather than holding the request.
        { id: jobId, ifConnected: true },
      );
    } catch (err) {
      await jobs.fail(jobId, null, 'the job could not be queued (message broker unavailable)');
      throw new ServiceUnavailable('Message broker unavailable; try again', { cause: err });
    }
    return queued.job;
  };

  r.post(
    '/',
    handler(async ({ user, set, setStatus }) => {
      const job = await queue('backup', user!.id);
      setStatus(202);
      set('job', presentJob(job));
    }),
  );

  r.get(
    '/',
    handler(async ({ set }) => {
      set('jobs', (await jobs.newest(20)).map(presentJob));
    }),
  );

  // Checked before the upload is read: no point streaming 512 MB to answer 409. The slot is
  // claimed only after the upload (queue() answers 409 then if another job got in meanwhile).
  const refuseWhileBusy: RequestHandler = (_req, _res, next) => {
    jobs.inFlight().then((job) => next(job ? busy(job) : undefined), next);
  };
  r.post(
    '/restore',
    refuseWhileBusy,
    restoreUpload(ctx.storage),
    handler(async ({ req, user, set, setStatus }) => {
      const file = uploadedFile(req);
      if (!file) throw new BadRequest('archive: no archive file uploaded (multipart field "archive")');
      try {
        const job = await queue('restore', user!.id, {
          archiveKey: file.key,
          archiveName: file.originalname,
          archiveSize: file.size,
        });
        setStatus(202);
        set('job', presentJob(job));
      } catch (err) {
        await ctx.storage.delete(file.key).catch(() => undefined);
        throw err;
      }
    }),
  );

  r.get(
    '/:id',
    handler(async ({ params, set }) => {
      set('job', presentJob(await load(params.id)));
    }),
  );

  r.get(
    '/:id/download',
    handler(async ({ params, res }) => {
      const job = await load(params.id);
      if (job.type !== 'backup' || job.status !== 'done' || !job.archiveKey)
        throw new Conflict('Archive not ready');
      const { body, info } = await ctx.storage.get(job.archiveKey);
      res.status(200);
      res.setHeader('Content-Type', 'application/gzip');
      res.setHeader('Content-Length', String(info.size));
      res.setHeader('Content-Disposition', `attachment; filename="${job.archiveName ?? 'backup.tar.gz'}"`);
      await streamResponse(body, res);
    }),
  );

  r.delete(
    '/:id',
    handler(async ({ params, set }) => {
      const job = await load(params.id);
      if (job.status === 'pending' || job.status === 'running')
        throw new Conflict('The job is still in flight; delete it once it has ended');
      if (job.archiveKey) await ctx.storage.delete(job.archiveKey);
      await jobs.remove(job._id);
      set('ok', true);
    }),
  );
  return r;
}
