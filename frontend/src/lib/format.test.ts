import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDuration, formatFileSize, formatProcessingTime, formatRelativeTime } from './format';

describe('formatFileSize', () => {
  it.each([
    [0, '0 Bytes'],
    [500, '500 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [5 * 1024 * 1024, '5 MB'],
    [1.25 * 1024 ** 3, '1.25 GB'],
    [3 * 1024 ** 4, '3072 GB'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe('formatDate and formatDuration', () => {
  it('formats dates like Jan 05, 2024', () => {
    expect(formatDate('2024-01-05T12:00:00Z')).toBe('Jan 05, 2024');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  it('formats durations as h:mm:ss or m:ss', () => {
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(3600 + 2 * 60 + 3)).toBe('1:02:03');
    expect(formatDuration(0)).toBe('0:00');
  });

  it('formats processing times', () => {
    expect(formatProcessingTime(12_345)).toBe('12.3s');
    expect(formatProcessingTime(125_000)).toBe('2m 05s');
  });
});

describe('formatDateTime and formatRelativeTime', () => {
  it("formats a moment like 'Mar 03, 2025 at 9:00 AM', in a given time zone", () => {
    expect(formatDateTime('2025-03-03T09:00:00Z', 'UTC')).toBe('Mar 03, 2025 at 9:00 AM');
    expect(formatDateTime('2025-03-03T09:00:00Z', 'America/New_York')).toBe('Mar 03, 2025 at 4:00 AM');
    expect(formatDateTime('2025-12-31T23:30:00Z', 'UTC')).toBe('Dec 31, 2025 at 11:30 PM');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('nope')).toBe('');
  });

  it("says how long ago, like '5 minutes ago'", () => {
    const now = new Date('2025-03-03T12:00:00Z');
    const ago = (seconds: number) => formatRelativeTime(new Date(now.getTime() - seconds * 1000), now);
    expect(ago(20)).toBe('just now');
    expect(ago(60)).toBe('1 minute ago');
    expect(ago(5 * 60 + 30)).toBe('5 minutes ago');
    expect(ago(2 * 3600)).toBe('2 hours ago');
    expect(ago(3 * 86_400)).toBe('3 days ago');
    expect(ago(14 * 86_400)).toBe('2 weeks ago');
    expect(ago(65 * 86_400)).toBe('2 months ago');
    expect(ago(800 * 86_400)).toBe('2 years ago');
    expect(ago(-3 * 3600)).toBe('in 3 hours');
    expect(formatRelativeTime(undefined)).toBe('');
  });
});
