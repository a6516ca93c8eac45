/** Account settings: profile, avatar and password (Update of the user through POST /outbox). */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { upload } from '../api/client';
import { pathOf } from '../api/routes';
import { useMe, useOutbox } from '../api/hooks';
import type { UploadedFile } from '../api/types';
import { Avatar } from '../ui/post-card';
import { ErrorNote } from '../ui/states';
import { useT } from '../i18n/use-t';

/** `a &amp; b` as `a & b` (a textarea element decodes without running anything). */
function decodeEntities(html: string): string {
  const el = document.createElement('textarea');
  el.innerHTML = html;
  return el.value;
}

export function SettingsPage() {
  const { t } = useT();
  const me = useMe();
  const user = me.data!;
  const qc = useQueryClient();
  const [name, setName] = useState(user.profile.name ?? '');
  // The stored bio is sanitised HTML text (entities escaped): shown as the text that was written.
  const [description, setDescription] = useState(() => decodeEntities(user.profile.description ?? ''));
  const [pw, setPw] = useState({ current: '', next: '' });
  const [avatarPct, setAvatarPct] = useState<number | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const profile = useOutbox([['me']]);
  const password = useOutbox();
  const refresh = () => qc.invalidateQueries({ queryKey: ['me'] });

  const pickAvatar = (file: File | undefined) => {
    if (!file) return;
    setAvatarError(null);
    setAvatarPct(0);
    const form = new FormData();
    form.append('file', file);
    upload<{ file?: UploadedFile }>(pathOf('files'), form, setAvatarPct)
      .then((out) => {
        const f = out.file;
        if (!f) throw new Error(t('common.noFile'));
        return profile.mutateAsync({
          type: 'Update',
          target: user.id,
          // The file id attaches the upload to the profile, whose audience it then follows.
          object: { profile: { icon: f.id } },
        });
      })
      .then(refresh)
      .catch((err: unknown) => setAvatarError(err instanceof Error ? err.message : t('common.uploadFailed')))
      .finally(() => setAvatarPct(null));
  };

  return (
    <>
      <h1>{t('settings.title')}</h1>
      <form
        className="card"
        aria-labelledby="profile-h"
        onSubmit={(e) => {
          e.preventDefault();
          profile.mutate(
            {
              type: 'Update',
              target: user.id,
              object: { profile: { name, description } },
            },
            { onSuccess: () => void refresh() },
          );
        }}
      >
        <h2 id="profile-h">{t('settings.profile')}</h2>
        <label>
          {t('settings.displayName')}
          <input maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t('settings.about')}
          <textarea
            maxLength={5000}
            rows={3}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <ErrorNote error={profile.error} title={t('common.notSaved')} />
        {profile.isSuccess ? <p role="status">{t('settings.profileSaved')}</p> : null}
        <button type="submit" disabled={profile.isPending}>
          {t('settings.saveProfile')}
        </button>
      </form>
      <section className="card" aria-labelledby="avatar-h">
        <h2 id="avatar-h">{t('settings.avatar')}</h2>
        <Avatar src={user.profile.icon} name={user.profile.name ?? user.username} />
        <label className="file-pick">
          {t('settings.chooseImage')}
          <input type="file" accept="image/*" onChange={(e) => pickAvatar(e.target.files?.[0])} />
        </label>
        {avatarPct !== null ? (
          <progress max={100} value={avatarPct} aria-label={t('settings.uploadingAvatar')} />
        ) : null}
        {avatarError ? (
          <p className="error" role="alert">
            {avatarError}
          </p>
        ) : null}
      </section>
      <form
        className="card"
        aria-labelledby="password-h"
        onSubmit={(e) => {
          e.preventDefault();
          password.mutate(
            { type: 'Update', target: user.id, object: { password: { current: pw.current, new: pw.next } } },
            { onSuccess: () => setPw({ current: '', next: '' }) },
          );
        }}
      >
        <h2 id="password-h">{t('settings.password')}</h2>
        <label>
          {t('settings.currentPassword')}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={pw.current}
            onChange={(e) => setPw({ ...pw, current: e.target.value })}
          />
        </label>
        <label>
          {t('settings.newPassword')}
          <input
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            value={pw.next}
            onChange={(e) => setPw({ ...pw, next: e.target.value })}
          />
        </label>
        <ErrorNote error={password.error} title={t('common.notChanged')} />
        {password.isSuccess ? <p role="status">{t('settings.passwordChanged')}</p> : null}
        <button type="submit" disabled={password.isPending}>
          {t('settings.changePassword')}
        </button>
      </form>
    </>
  );
}
