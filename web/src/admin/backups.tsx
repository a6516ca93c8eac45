/**
 * Backups (issue 13's contract for /admin/backup): start one, watch its progress live, download
 * the archive, delete it, restore from an uploaded archive. The download is fetched with the
 * token (admin routes need the Authorization header) and handed to the browser as a file.
 */
import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, upload } from '../api/client';
import { pathOf } from '../api/routes';
import { getToken } from '../api/session';
import type { BackupJob } from '../api/types';
import { bytes, when } from '../ui/format';
import { ErrorNote, QueryState } from '../ui/states';
import { t, useT } from '../i18n/use-t';

type JobList = { orderedItems?: BackupJob[]; jobs?: BackupJob[]; items?: BackupJob[] };
const jobsOf = (d: JobList) => d.orderedItems ?? d.jobs ?? d.items ?? [];
const live = (j: BackupJob) => j.status === 'pending' || j.status === 'running';

async function download(job: BackupJob): Promise<void> {
  const res = await fetch(pathOf('adminBackupDownload', { id: job.id }), {
    headers: { authorization: `Bearer ${getToken() ?? ''}`, accept: 'application/gzip' },
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(res.status, body.error ?? t('admin.downloadFailed', { status: res.status }));
  }
  const name =
    /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ??
    `backup-${job.id}.tar.gz`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function JobRow({ job }: { job: BackupJob }) {
  useT();
  const qc = useQueryClient();
  const status = useQuery({
    queryKey: ['admin', 'backup', job.id],
    queryFn: async () => {
      const out = await api.get<{ job?: BackupJob } & Partial<BackupJob>>(
        pathOf('adminBackup', { id: job.id }),
      );
      return (out.job ?? out) as BackupJob;
    },
    initialData: job,
    refetchInterval: (q) => (q.state.data && live(q.state.data) ? 1_000 : false),
  });
  const j = status.data ?? job;
  const get = useMutation({ mutationFn: () => download(j) });
  const del = useMutation({
    mutationFn: () => api.del(pathOf('adminBackup', { id: j.id })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'backups'] }),
  });
  const pct = Math.round(j.progress?.pct ?? (j.status === 'done' ? 100 : 0));
  return (
    <li className="card" data-testid="backup-job">
      <p>
        <strong>{j.kind ?? j.type ?? t('admin.backup')}</strong> · {when(j.createdAt)} ·{' '}
        <span data-testid="backup-status">{j.status}</span>
        {j.size ? ` · ${bytes(j.size)}` : ''}
      </p>
      {live(j) ? (
        <p>
          <progress
            max={100}
            value={pct}
            aria-label={t('admin.backupProgress', { stage: j.progress?.stage ?? j.status })}
          />{' '}
          {j.progress?.stage ?? ''} {pct}%
        </p>
      ) : null}
      {j.error ? <p className="error">{j.error}</p> : null}
      <div className="actions">
        {j.status === 'done' && (j.kind ?? j.type ?? 'backup') === 'backup' ? (
          <button type="button" onClick={() => get.mutate()} disabled={get.isPending}>
            {t('admin.download')}
          </button>
        ) : null}
        {!live(j) ? (
          <button type="button" className="secondary" onClick={() => del.mutate()}>
            {t('admin.delete')}
          </button>
        ) : null}
      </div>
      <ErrorNote error={get.error ?? del.error} title={t('admin.refused')} />
    </li>
  );
}

export function BackupsPage() {
  useT();
  const qc = useQueryClient();
  const file = useRef<HTMLInputElement>(null);
  const [restorePct, setRestorePct] = useState<number | null>(null);
  const jobs = useQuery({
    queryKey: ['admin', 'backups'],
    queryFn: () => api.get<JobList>(pathOf('adminBackups')),
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ['admin', 'backups'] });
  const start = useMutation({ mutationFn: () => api.post(pathOf('adminBackups')), onSuccess: refresh });
  const restore = useMutation({
    mutationFn: (f: File) => {
      const form = new FormData();
      form.append('archive', f);
      setRestorePct(0);
      return upload(pathOf('adminBackupRestore'), form, setRestorePct).finally(() => setRestorePct(null));
    },
    onSuccess: refresh,
  });
  return (
    <>
      <h1>{t('admin.backups')}</h1>
      <div className="actions">
        <button type="button" onClick={() => start.mutate()} disabled={start.isPending}>
          {t('admin.backUpNow')}
        </button>
      </div>
      <ErrorNote error={start.error} title={t('admin.notStarted')} />
      <form
        className="card"
        aria-label={t('admin.restoreForm')}
        onSubmit={(e) => {
          e.preventDefault();
          const f = file.current?.files?.[0];
          if (f && window.confirm(t('admin.confirmRestore'))) restore.mutate(f);
        }}
      >
        <h2>{t('admin.restoreTitle')}</h2>
        <label>
          {t('admin.archive')}
          <input ref={file} type="file" accept=".gz,.tgz,application/gzip" required />
        </label>
        {restorePct !== null ? (
          <progress max={100} value={restorePct} aria-label={t('admin.uploadingArchive')} />
        ) : null}
        <ErrorNote error={restore.error} title={t('admin.restoreRefused')} />
        <button type="submit" className="danger" disabled={restore.isPending}>
          {t('admin.restore')}
        </button>
      </form>
      <QueryState query={jobs} isEmpty={(d) => !jobsOf(d).length} empty={t('admin.noBackups')}>
        {(d) => (
          <ul className="plain">
            {jobsOf(d).map((j) => (
              <JobRow key={j.id} job={j} />
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
