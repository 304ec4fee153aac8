import * as Progress from '@radix-ui/react-progress';

type Tone = 'primary' | 'success' | 'danger';

/** An accessible progress bar (role=progressbar with value) and an optional visible percentage. */
export function ProgressBar({
  value,
  label,
  tone = 'primary',
  showValue = false,
}: {
  value: number;
  label: string;
  tone?: Tone;
  showValue?: boolean;
}) {
  const clamped = Math.max(0, Math.min(100, Math.round(Number.isFinite(value) ? value : 0)));
  return (
    <div className="progress">
      <Progress.Root className={`progress-track tone-${tone}`} value={clamped} aria-label={label}>
        {/* At 0 the fill is hidden, not only slid out: its rounded edge, anti-aliased against the
            track's, otherwise leaves a hairline of colour on an empty (say, failed) bar. */}
        <Progress.Indicator
          className="progress-indicator"
          style={{ transform: `translateX(-${100 - clamped}%)`, visibility: clamped === 0 ? 'hidden' : undefined }}
        />
      </Progress.Root>
      {showValue && <span className="progress-value">{clamped}%</span>}
    </div>
  );
}
