import { describe, expect, it } from 'vitest';
import { formatDate, formatDuration, formatFileSize, formatProcessingTime } from './format';

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
