/** Formats a byte count with the units of the spec: Bytes, KB, MB, GB. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const units = ['Bytes', 'KB', 'MB', 'GB'] as const;
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${parseFloat(value.toFixed(2))} ${units[exponent]}`;
}

const monthDayYear = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: '2-digit',
  year: 'numeric',
});

/** 'Jan 05, 2024'; an empty string for a missing or invalid date. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return monthDayYear.format(date);
}

/** h:mm:ss when an hour or longer, otherwise m:ss. */
export function formatDuration(totalSeconds: number | null | undefined): string {
  if (totalSeconds === null || totalSeconds === undefined || !Number.isFinite(totalSeconds)) return '';
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A processing time in milliseconds as '12.3s' or '2m 05s'. */
export function formatProcessingTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m ${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
}

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 9799 → '9,799'; numeric strings (the YouTube API sends counts as strings) are accepted. */
export function formatCount(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? wholeNumber.format(number) : '';
}

const clockTime = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** '9:00 AM' in the browser's time zone; an empty string for a missing or invalid date. */
export function formatClockTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return clockTime.format(date);
}

/**
 * 'Mar 03, 2025 at 9:00 AM' in the browser's time zone (or `timeZone`); an empty string for a
 * missing or invalid date.
 */
export function formatDateTime(value: string | number | Date | null | undefined, timeZone?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const day = timeZone ? new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric', timeZone }) : monthDayYear;
  const time = timeZone ? new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }) : clockTime;
  // ICU puts a narrow no-break space before AM/PM; the spec's text has a plain one.
  return `${day.format(date)} at ${time.format(date).replace(/\u202f/g, ' ')}`;
}

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'always' });
const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['minute', 60],
  ['hour', 3600],
  ['day', 86_400],
  ['week', 7 * 86_400],
  ['month', 30 * 86_400],
  ['year', 365 * 86_400],
];

/**
 * How long ago (or how soon) `value` is, like '5 minutes ago', '2 hours ago', 'in 3 days'; under a
 * minute 'just now'. An empty string for a missing or invalid date.
 */
export function formatRelativeTime(value: string | number | Date | null | undefined, now: Date = new Date()): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const seconds = (date.getTime() - now.getTime()) / 1000;
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  let unit: Intl.RelativeTimeFormatUnit = 'minute';
  let size = 60;
  for (const [candidate, candidateSize] of RELATIVE_STEPS) {
    if (abs >= candidateSize) {
      unit = candidate;
      size = candidateSize;
    }
  }
  const amount = Math.floor(abs / size);
  return relative.format(seconds < 0 ? -amount : amount, unit);
}
