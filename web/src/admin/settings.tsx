/** Settings: every setting; redacted and locked ones read-only, the others edited one by one. */
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { pathOf } from '../api/routes';
import type { Setting } from '../api/types';
import { ErrorNote, QueryState } from '../ui/states';

const locked = (s: Setting) =>
  s.ui.type === 'redacted' || s.canEdit === '@private' || s.value === '[redacted]';

function asText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

function SettingRow({ setting }: { setting: Setting }) {
  const qc = useQueryClient();
  const kind = setting.ui.type ?? (typeof setting.value === 'boolean' ? 'boolean' : typeof setting.value);
  const [text, setText] = useState(asText(setting.value));
  const [parseError, setParseError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (value: unknown) => api.patch(pathOf('adminSetting', { name: setting.name }), { value }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'settings'] }),
  });
  const id = `setting-${setting.name}`;
  if (locked(setting))
    return (
      <li>
        <span className="setting-name" id={id}>
          {setting.name}
        </span>{' '}
        <code aria-labelledby={id}>{asText(setting.value)}</code> <span className="meta">read-only</span>
      </li>
    );
  const submit = () => {
    setParseError(null);
    if (kind === 'boolean') return save.mutate(text === 'true');
    if (kind === 'number') return save.mutate(Number(text));
    if (typeof setting.value === 'string' || setting.value === null) return save.mutate(text);
    try {
      save.mutate(JSON.parse(text));
    } catch {
      setParseError('Not valid JSON');
    }
  };
  return (
    <li>
      <form
        className="setting"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label htmlFor={id} className="setting-name">
          {setting.name}
        </label>
        {setting.summary ? <small>{setting.summary}</small> : null}
        {kind === 'boolean' ? (
          <select id={id} value={text} onChange={(e) => setText(e.target.value)}>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : typeof setting.value === 'object' && setting.value !== null ? (
          <textarea id={id} rows={4} value={text} onChange={(e) => setText(e.target.value)} />
        ) : (
          <input id={id} value={text} onChange={(e) => setText(e.target.value)} />
        )}
        <button type="submit" disabled={save.isPending}>
          Save {setting.name}
        </button>
        {save.isSuccess ? <span role="status">Saved.</span> : null}
        {parseError ? <span className="error">{parseError}</span> : null}
        <ErrorNote error={save.error} title="Refused" />
      </form>
    </li>
  );
}

export function SettingsAdminPage() {
  const settings = useQuery({
    queryKey: ['admin', 'settings'],
    queryFn: () => api.get<{ settings: Setting[] }>(pathOf('adminSettings')),
  });
  return (
    <>
      <h1>Server settings</h1>
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
