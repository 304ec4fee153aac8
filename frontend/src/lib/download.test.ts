import { describe, expect, it } from 'vitest';
import { filenameFromContentDisposition } from './download';
import { formatClockTime, formatCount } from './format';

describe('filenameFromContentDisposition', () => {
  it.each([
    ['attachment; filename="channel-videos.csv"', 'channel-videos.csv'],
    ['attachment; filename=plain.csv', 'plain.csv'],
    ["attachment; filename=\"fallback.csv\"; filename*=UTF-8''caf%C3%A9%20videos.csv", 'café videos.csv'],
    ['attachment; filename="with \\"quotes\\".csv"', 'with "quotes".csv'],
    ['attachment; filename="../../etc/passwd.csv"', 'passwd.csv'],
    ['attachment', null],
    ['', null],
    [null, null],
  ])('%s → %s', (header, name) => {
    expect(filenameFromContentDisposition(header)).toBe(name);
  });
});

describe('formatCount and formatClockTime', () => {
  it('groups thousands and accepts numeric strings', () => {
    expect(formatCount(9799)).toBe('9,799');
    expect(formatCount('1234567')).toBe('1,234,567');
    expect(formatCount(null)).toBe('');
    expect(formatCount('hidden')).toBe('');
  });

  it('shows a local clock time like 9:00 AM', () => {
    expect(formatClockTime(new Date(2025, 0, 1, 9, 0))).toBe('9:00 AM');
    expect(formatClockTime(new Date(2025, 0, 1, 17, 30).toISOString())).toBe('5:30 PM');
    expect(formatClockTime('nope')).toBe('');
  });
});
