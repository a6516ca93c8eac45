/**
 * The content-warning field and the sensitive-media switch (ADR 0021), shared by the compose box
 * and the edit form of a post or reply. `sensitive` is left out where it has no meaning (a reply carries no media).
 */
import { useT } from '../i18n/use-t';

export function WarningFields({
  warning,
  onWarning,
  sensitive,
  onSensitive,
  label,
  placeholder,
}: {
  warning: string;
  onWarning: (v: string) => void;
  sensitive?: boolean;
  onSensitive?: (v: boolean) => void;
  label?: string;
  placeholder?: string;
}) {
  const { t } = useT();
  return (
    <div className="compose-row">
      <label>
        {label ?? t('post.cwField')}
        <input
          name="contentWarning"
          maxLength={500}
          placeholder={placeholder ?? t('post.cwPlaceholder')}
          value={warning}
          onChange={(e) => onWarning(e.target.value)}
        />
      </label>
      {onSensitive ? (
        <label className="check">
          <input
            type="checkbox"
            name="sensitive"
            checked={sensitive === true}
            onChange={(e) => onSensitive(e.target.checked)}
          />{' '}
          {t('post.sensitiveField')}
        </label>
      ) : null}
    </div>
  );
}
