/** The admin view of a setting: secrets are never returned, not even to admins. */
export const REDACTED = '[redacted]';

export interface SettingRow {
  name: string;
  value?: unknown;
  summary?: string | null;
  to?: string | null;
  canEdit?: string | null;
  ui?: { type?: string | null; [key: string]: unknown } | null;
  updatedAt?: Date;
}

export function presentSetting(s: SettingRow) {
  const secret = s.to === '@private' || s.name === 'privateKey';
  return {
    name: s.name,
    value: secret ? REDACTED : valueOf(s),
    summary: s.summary ?? '',
    to: s.to ?? '@public',
    canEdit: s.canEdit ?? '@admin',
    ui: s.ui ?? {},
    ...(s.updatedAt ? { updatedAt: s.updatedAt } : {}),
  };
}

/**
 * A stored value, `null` when the document has none. The seed of `rules` (an empty array) is
 * currently stored without a value, so an absent rules list reads as the empty list it means.
 */
function valueOf(s: SettingRow): unknown {
  if (s.value !== undefined && s.value !== null) return s.value;
  return s.ui?.type === 'rules' ? [] : null;
}
