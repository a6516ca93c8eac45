/**
 * Form fields generated from a setting's schema: its `ui.type` (libs/common/src/settings/
 * defaults.ts; the same types the server validates writes by, services/admin/src/settings/
 * write.ts) and, for `json` settings, the shape of the value itself: an object becomes a group
 * of fields (one per key), a list of objects becomes rows that can be added and removed, a list
 * of words one word per line. Nothing asks the admin to write JSON unless the value has no
 * regular shape.
 */
import { useId, useState } from 'react';
import { useT } from '../i18n/use-t';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface FieldProps<T = Json> {
  label: string;
  value: T;
  onChange: (v: T) => void;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A value shown as text: strings as they are, anything else empty (never "[object Object]"). */
const textOf = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';

/** `maxUploadSize` → "Max upload size"; `hate_speech` → "Hate speech". */
export function words(key: string): string {
  const spaced = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function TextField({ label, value, onChange, type = 'text' }: FieldProps<string> & { type?: string }) {
  const long = type === 'text' && (value.length > 80 || value.includes('\n'));
  return (
    <label>
      {label}
      {type === 'textarea' || long ? (
        <textarea rows={3} value={value} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input type={type} value={value} onChange={(e) => onChange(e.target.value)} />
      )}
    </label>
  );
}

function NumberField({ label, value, onChange }: FieldProps<number>) {
  const [text, setText] = useState(String(value));
  return (
    <label>
      {label}
      <input
        type="number"
        step="any"
        required
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value !== '' && Number.isFinite(Number(e.target.value)))
            onChange(Number(e.target.value));
        }}
      />
    </label>
  );
}

function BooleanField({ label, value, onChange }: FieldProps<boolean>) {
  return (
    <label className="check">
      <input type="checkbox" checked={value} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** A list of words, one per line (blank lines are dropped). */
function LinesField({ label, value, onChange }: FieldProps<string[]>) {
  const { t } = useT();
  const hint = useId();
  const [text, setText] = useState(value.join('\n'));
  return (
    <label>
      {label}
      <span id={hint} className="meta">
        {t('admin.onePerLine')}
      </span>
      <textarea
        rows={Math.min(Math.max(value.length + 1, 3), 10)}
        aria-describedby={hint}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          onChange(
            e.target.value
              .split('\n')
              .map((s) => s.trim())
              .filter(Boolean),
          );
        }}
      />
    </label>
  );
}

/** The last resort for a value with no regular shape: JSON text, checked before it is kept. */
function JsonField({ label, value, onChange }: FieldProps) {
  const { t } = useT();
  const [text, setText] = useState(JSON.stringify(value, null, 2));
  const [bad, setBad] = useState(false);
  const err = useId();
  return (
    <label>
      {t('admin.json', { label })}
      <textarea
        rows={6}
        value={text}
        aria-invalid={bad}
        aria-describedby={bad ? err : undefined}
        onChange={(e) => {
          setText(e.target.value);
          try {
            onChange(JSON.parse(e.target.value) as Json);
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
      />
      {bad ? (
        <span id={err} className="error">
          {t('admin.notJson')}
        </span>
      ) : null}
    </label>
  );
}

function ObjectField({ label, value, onChange }: FieldProps<JsonObject>) {
  return (
    <fieldset>
      <legend>{label}</legend>
      {Object.entries(value).map(([k, v]) => (
        <ValueField key={k} label={words(k)} value={v} onChange={(nv) => onChange({ ...value, [k]: nv })} />
      ))}
    </fieldset>
  );
}

/** A blank row shaped like the first one (every text empty, numbers 0, switches off). */
function blankLike(v: Json): Json {
  if (typeof v === 'string') return '';
  if (typeof v === 'number') return 0;
  if (typeof v === 'boolean') return false;
  if (Array.isArray(v)) return [];
  if (isObject(v)) return Object.fromEntries(Object.keys(v).map((k) => [k, blankLike(v[k]!)]));
  return null;
}

/** Rows of objects of one shape (e.g. the reaction palette): edit, add, remove. */
function RowsField({ label, value, onChange }: FieldProps<JsonObject[]>) {
  const { t } = useT();
  return (
    <fieldset>
      <legend>{label}</legend>
      <ol className="plain rows">
        {value.map((row, i) => (
          <li key={i}>
            <ObjectField
              label={t('admin.entry', { n: i + 1 })}
              value={row}
              onChange={(nv) => onChange(value.map((r, j) => (j === i ? nv : r)))}
            />
            <button
              type="button"
              className="link-button"
              onClick={() => onChange(value.filter((_r, j) => j !== i))}
            >
              {t('admin.removeEntry', { n: i + 1 })}
            </button>
          </li>
        ))}
      </ol>
      {value[0] ? (
        <button
          type="button"
          className="secondary"
          onClick={() => onChange([...value, blankLike(value[0]!) as JsonObject])}
        >
          {t('admin.addEntry')}
        </button>
      ) : null}
    </fieldset>
  );
}

/** The field for any value, chosen by its shape. */
export function ValueField({ label, value, onChange }: FieldProps) {
  if (typeof value === 'boolean') return <BooleanField label={label} value={value} onChange={onChange} />;
  if (typeof value === 'number') return <NumberField label={label} value={value} onChange={onChange} />;
  if (typeof value === 'string' || value === null)
    return <TextField label={label} value={value ?? ''} onChange={onChange} />;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string'))
      return <LinesField label={label} value={value} onChange={onChange} />;
    if (value.length && value.every(isObject))
      return <RowsField label={label} value={value} onChange={onChange} />;
    return <JsonField label={label} value={value} onChange={onChange} />;
  }
  return <ObjectField label={label} value={value} onChange={onChange} />;
}

export interface RuleValue {
  id?: string;
  text: string;
}

/** The server rules (`ui.type: rules`): one text per rule, in order; empty ones are dropped. */
export function RulesField({ label, value, onChange }: FieldProps<RuleValue[]>) {
  const { t } = useT();
  return (
    <fieldset>
      <legend>{label}</legend>
      <ol className="plain rows">
        {value.map((r, i) => (
          <li key={r.id ?? `new-${i}`}>
            <label>
              {t('admin.rule', { n: i + 1 })}
              <textarea
                rows={2}
                value={r.text}
                onChange={(e) =>
                  onChange(value.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)))
                }
              />
            </label>
            <button
              type="button"
              className="link-button"
              onClick={() => onChange(value.filter((_x, j) => j !== i))}
            >
              {t('admin.removeRule', { n: i + 1 })}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="secondary" onClick={() => onChange([...value, { text: '' }])}>
        {t('admin.addRule')}
      </button>
    </fieldset>
  );
}

/** The field of one setting by its `ui.type`; `json` (and anything unknown) by the value's shape. */
export function SettingField({
  type,
  options,
  label,
  value,
  onChange,
}: FieldProps & { type: string; options?: unknown }) {
  const { t } = useT();
  switch (type) {
    case 'boolean':
      return <BooleanField label={label} value={value === true} onChange={onChange} />;
    case 'number':
      return <NumberField label={label} value={typeof value === 'number' ? value : 0} onChange={onChange} />;
    case 'email':
    case 'url':
    case 'color':
    case 'textarea':
      return <TextField label={label} type={type} value={textOf(value)} onChange={onChange} />;
    case 'markdown':
      return <TextField label={label} type="textarea" value={textOf(value)} onChange={onChange} />;
    case 'image':
      return (
        <TextField
          label={t('admin.address', { label })}
          type="url"
          value={textOf(value)}
          onChange={onChange}
        />
      );
    case 'select':
      if (Array.isArray(options))
        return (
          <label>
            {label}
            <select value={textOf(value)} onChange={(e) => onChange(e.target.value)}>
              {options.map((o) => (
                <option key={textOf(o)} value={textOf(o)}>
                  {textOf(o)}
                </option>
              ))}
            </select>
          </label>
        );
      return <TextField label={label} value={textOf(value)} onChange={onChange} />;
    case 'rules': {
      const rules = Array.isArray(value)
        ? value.map((r) => (isObject(r) ? { id: textOf(r.id), text: textOf(r.text) } : { text: textOf(r) }))
        : [];
      return (
        <RulesField
          label={label}
          value={rules}
          onChange={(rs) =>
            onChange(rs.map((r): Json => (r.id ? { id: r.id, text: r.text } : { text: r.text })))
          }
        />
      );
    }
    case 'multiselect':
      return (
        <LinesField label={label} value={Array.isArray(value) ? value.map(String) : []} onChange={onChange} />
      );
    case 'text':
      return <TextField label={label} value={textOf(value)} onChange={onChange} />;
    default:
      return <ValueField label={label} value={value} onChange={onChange} />;
  }
}

export type { Json };
