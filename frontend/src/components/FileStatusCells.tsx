import { ProgressBar } from './ProgressBar';
import { StatusBadge, type BadgeTone } from './StatusBadge';

/**
 * The Status and Progress cells of a row under `FileTableHead`: the status badge, then the
 * progress bar with its percentage, red for a failed file and green for a finished one (the
 * badge's `danger` and `success` tones), the primary colour otherwise.
 */
export function FileStatusCells({
  status,
  tone,
  progress,
  progressLabel,
}: {
  /** The badge's text. */
  status: string;
  tone: BadgeTone;
  progress: number;
  /** The bar's accessible name, e.g. 'Upload progress of {title}'. */
  progressLabel: string;
}) {
  return (
    <>
      <td data-label="Status">
        <StatusBadge tone={tone}>{status}</StatusBadge>
      </td>
      <td data-label="Progress" className="col-progress">
        <ProgressBar value={progress} label={progressLabel} tone={tone === 'danger' || tone === 'success' ? tone : 'primary'} showValue />
      </td>
    </>
  );
}
