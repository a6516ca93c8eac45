/**
 * Settings: one form per setting, generated from its schema (`ui.type`, and for `json` values
 * their shape: setting-fields.tsx). Redacted and server-managed settings are read-only.
 */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Setting } from '../api/types';
import { ErrorNote, QueryState } from '../ui/states';
import { SettingField, type Json } from './setting-fields';
import { useT } from '../i18n/use-t';

const locked = (s: Setting) =>
  s.ui.type === 'redacted' || s.canEdit === '@private' || s.value === '[redacted]';

function asText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

/** The `ui.type` to edit by: stored values from before a type was set are edited by their shape. */
function typeOf(s: Setting): string {
  if (s.ui.type) return s.ui.type;
  if (typeof s.value === 'boolean') return 'boolean';
  if (typeof s.value === 'number') return 'number';
  return typeof s.value === 'string' ? 'text' : 'json';
}

function SettingRow({ setting }: { setting: Setting }) {
  const { t } = useT();
  const qc = useQueryClient();
  const [value, setValue] = useState<Json>(setting.value as Json);
  const save = useMutation({
    mutationFn: () =>
      api.patch<{ setting: Setting }>(pathOf('adminSetting', { name: setting.name }), { value }),
    // The stored value (rules get ids, a description is sanitised) replaces the draft.
    onSuccess: (out) => {
      setValue(out.setting.value as Json);
      return qc.invalidateQueries({ queryKey: ['admin', 'settings'] });
    },
  });
  const label = setting.summary || setting.name;
  if (locked(setting))
    return (
      <li>
        <div className="setting">
          <span id={`setting-${setting.name}`}>{label}</span>{' '}
          <code className="setting-name">{setting.name}</code>
          <code aria-labelledby={`setting-${setting.name}`}>{asText(setting.value)}</code>{' '}
          <span className="meta">{t('admin.readOnly')}</span>
        </div>
      </li>
    );
  return (
    <li>
      <form
        className="setting"
        data-testid="setting"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <SettingField
          type={typeOf(setting)}
          options={(setting.ui as { options?: unknown }).options}
          label={label}
          value={value}
          onChange={(v) => {
            save.reset();
            setValue(v);
          }}
        />
        <p className="meta">
          <code className="setting-name">{setting.name}</code>
        </p>
        <button type="submit" disabled={save.isPending}>
          {t('admin.save')}
          <span className="sr-only"> {setting.name}</span>
        </button>
        {save.isSuccess ? <span role="status">{t('admin.saved')}</span> : null}
        <ErrorNote error={save.error} title={t('admin.refused')} />
      </form>
    </li>
  );
}

export function SettingsAdminPage() {
  const { t } = useT();
  const settings = useQuery({
    queryKey: ['admin', 'settings'],
    queryFn: () => api.get<{ settings: Setting[] }>(pathOf('adminSettings')),
  });
  return (
    <>
      <h1>{t('admin.serverSettings')}</h1>
      <QueryState query={settings}>
        {(d) => (
          <ul className="plain settings">
            {d.settings.map((s) => (
              <SettingRow key={s.name} setting={s} />
            ))}
          </ul>
        )}
      </QueryState>
    </>
  );
}
