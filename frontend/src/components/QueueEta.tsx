import { Hourglass, MoonStar, Timer } from 'lucide-react';
import type { QueueBasis, QueuedFile } from '@/api/queueApi';

const clock = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const dayAndClock = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

// ICU puts a narrow no-break space before AM/PM; the page's text has a plain one.
const plain = (text: string) => text.replace(/\u202f/g, ' ');

/** '3:42 PM' today, 'Mar 3, 1:00 AM' another day (the browser's time zone). */
export function formatWhen(at: Date, now: Date): string {
  return plain(at.toDateString() === now.toDateString() ? clock.format(at) : dayAndClock.format(at));
}

/** A stretch of time as 'under a minute', '12 min', '1 h 20 min', '2 d 3 h'. */
export function formatSpan(milliseconds: number): string {
  const minutes = Math.round(Math.max(0, milliseconds) / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** What a queued file's line says: its place, and when it should start and be done. */
export function describeQueuedFile(file: QueuedFile, now: Date = new Date()): { place: string; timing: string } {
  const start = new Date(file.estimatedStartAt);
  const end = new Date(file.estimatedEndAt);
  if (file.position === 0) {
    return { place: 'Running now', timing: `≈ done in ${formatSpan(end.getTime() - now.getTime())}, by ${formatWhen(end, now)}` };
  }
  const place = `#${file.position} in queue`;
  if (file.waitsForWindow) {
    return { place, timing: `overnight window opens ${formatWhen(start, now)} · ≈ done by ${formatWhen(end, now)}` };
  }
  const starts = start.getTime() <= now.getTime() ? '≈ starts now' : `≈ starts in ${formatSpan(start.getTime() - now.getTime())}`;
  return { place, timing: `${starts} · done by ${formatWhen(end, now)}` };
}

/** What the estimates were made from, in words. */
export function describeBasis(basis: QueueBasis | undefined): string {
  if (!basis) return 'Times are estimates.';
  const workers = basis.workers === 1 ? 'one file at a time' : `${basis.workers} files at a time`;
  if (basis.measuredFiles === 0) {
    return `Times are estimates: nothing was measured on this machine yet, so a file is assumed to take as long as it plays (${workers}).`;
  }
  const files = basis.measuredFiles === 1 ? 'file' : `${basis.measuredFiles} files`;
  return `Times are estimates from this machine's last ${files}: ${basis.realTimeFactor.toFixed(2)} s of work per second of audio, ${workers}.`;
}

/** The text with each clock time ('8:09 PM') unbreakable, so a line never ends between 8:09 and PM. */
function keepClocksWhole(text: string) {
  return text.split(/(\d{1,2}:\d{2} [AP]M)/).map((part, index) =>
    index % 2 === 1 ? (
      <span key={index} className="queue-clock">
        {part}
      </span>
    ) : (
      part
    ),
  );
}

/**
 * A waiting or running file's place in the queue and its estimated start and end, marked as an
 * estimate (its tooltip says what the estimate was made from).
 */
export function QueueEta({ file, basis, now }: { file: QueuedFile; basis?: QueueBasis; now?: Date }) {
  const { place, timing } = describeQueuedFile(file, now);
  const Icon = file.position === 0 ? Timer : file.waitsForWindow ? MoonStar : Hourglass;
  return (
    <span className="queue-eta" data-testid="queue-eta" title={describeBasis(basis)}>
      <Icon size={13} aria-hidden="true" />
      <span className="queue-place">{place}</span>{' '}
      <span className="queue-timing">{keepClocksWhole(timing)}</span>{' '}
      <span className="queue-estimate">(estimate)</span>
    </span>
  );
}
