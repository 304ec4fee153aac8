import { AlertCircle, AlertTriangle, CheckCheck, LoaderCircle } from 'lucide-react';
import { useId } from 'react';
import { errorMessage } from '@/api/errors';
import type { Schema } from '@/api/types';
import { formatDuration } from '@/lib/format';
import { REVIEW_ERRORS, useMarkReviewedMutation } from './reviewApi';

/** What the transcription worker's quality guard left to check on an AUDIO item (seconds). */
export type ItemReview = Schema<'ReviewView'>;
export type ReviewReason = Schema<'ReviewReason'>;

/** Each reason as the item says it, with what it means for the listener. */
export const REVIEW_REASONS: Record<ReviewReason, { label: string; explanation: string }> = {
  repetition: {
    label: 'Repeated phrase',
    explanation: 'The same phrase over and over: Whisper may have looped instead of following the speech.',
  },
  compression: {
    label: 'Looping text',
    explanation: 'The text repeats itself far more than speech does.',
  },
  lowConfidence: {
    label: 'Low confidence',
    explanation: 'Whisper was unsure of these words: they may be misheard or invented.',
  },
  textOverSilence: {
    label: 'Text over silence',
    explanation: 'Text where the recording has no speech to carry it: over silence, or more words than the time holds.',
  },
};

export function reviewReasonLabel(reason: ReviewReason): string {
  return REVIEW_REASONS[reason]?.label ?? reason;
}

/** The 'Needs review' mark of an item (list and detail). */
export function NeedsReviewBadge() {
  return (
    <span className="badge badge-warning" data-testid="needs-review">
      <AlertTriangle size={12} aria-hidden="true" /> Needs review
    </span>
  );
}

/**
 * Why an item needs review and where: each range plays the recording from its start through
 * `onSeek` (the item's player); without a player the times are shown as text. 'Mark as
 * reviewed' dismisses it: on success the item comes back without its review and the panel goes
 * with it; on failure the panel stays, saying why, so the user can try again.
 */
export function ReviewPanel({ itemId, review, onSeek }: { itemId: string; review: ItemReview; onSeek?: (seconds: number) => void }) {
  const headingId = useId();
  const [markReviewed, { isLoading: marking, error, reset }] = useMarkReviewedMutation();
  async function onMarkReviewed() {
    reset();
    // The outcome is read from the hook (error) and the item's cache (success).
    await markReviewed(itemId).unwrap().catch(() => undefined);
  }
  return (
    <section className="review-panel" aria-labelledby={headingId} data-testid="review-panel">
      <h3 id={headingId} className="group-title review-title">
        <AlertTriangle size={16} aria-hidden="true" /> Needs review
      </h3>
      <p className="muted review-hint">
        Whisper may have invented or repeated text in these stretches, and transcribing them again did not fix it. Listen to them and
        correct the text where it is wrong.
      </p>
      <ul className="review-reasons" aria-label="Reasons">
        {review.reasons.map((reason) => (
          <li key={reason}>
            <strong>{reviewReasonLabel(reason)}</strong>: {REVIEW_REASONS[reason]?.explanation}
          </li>
        ))}
      </ul>
      <ol className="review-ranges" aria-label="Stretches to check">
        {review.ranges.map((range, index) => {
          const span = `${formatDuration(range.start)}–${formatDuration(range.end)}`;
          const label = reviewReasonLabel(range.reason);
          return (
            <li key={`${range.start}-${range.reason}-${index}`}>
              {onSeek ? (
                <button
                  type="button"
                  className="player-time tabular"
                  aria-label={`Play from ${formatDuration(range.start)}: ${label.toLowerCase()} until ${formatDuration(range.end)}`}
                  onClick={() => onSeek(range.start)}
                >
                  {span}
                </button>
              ) : (
                <span className="tabular">{span}</span>
              )}
              <span className="review-range-reason">{label}</span>
            </li>
          );
        })}
      </ol>
      <div className="review-actions">
        <button type="button" className="btn btn-sm btn-outline" disabled={marking} onClick={() => void onMarkReviewed()}>
          {marking ? <LoaderCircle className="spin" size={14} aria-hidden="true" /> : <CheckCheck size={14} aria-hidden="true" />}
          {marking ? 'Marking as reviewed...' : 'Mark as reviewed'}
        </button>
        {error && (
          <p className="row-error review-error" role="alert">
            <AlertCircle size={14} aria-hidden="true" /> {errorMessage(error, REVIEW_ERRORS.markReviewed)}
          </p>
        )}
      </div>
    </section>
  );
}
