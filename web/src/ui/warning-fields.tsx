/**
 * The content-warning field and the sensitive-media switch (ADR 0021), shared by the edit form of
 * a post or reply. `sensitive` is left out where it has no meaning (a reply carries no media).
 */
export function WarningFields({
  warning,
  onWarning,
  sensitive,
  onSensitive,
  label = 'Content warning (optional)',
}: {
  warning: string;
  onWarning: (v: string) => void;
  sensitive?: boolean;
  onSensitive?: (v: boolean) => void;
  label?: string;
}) {
  return (
    <div className="compose-row">
      <label>
        {label}
        <input
          name="contentWarning"
          maxLength={500}
          placeholder="Shown before the text, which opens on request"
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
          Sensitive media (blurred until clicked)
        </label>
      ) : null}
    </div>
  );
}
