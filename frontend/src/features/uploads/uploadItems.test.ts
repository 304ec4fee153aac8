import { describe, expect, it } from 'vitest';
import { overallProgress } from './uploadItems';

describe('overallProgress', () => {
  it('is 66.7 for 2 done + 1 failed of 3 (a failed file counts as not uploaded)', () => {
    const value = overallProgress([
      { status: 'completed', progress: 100 },
      { status: 'completed', progress: 100 },
      { status: 'error', progress: 0 },
    ]);
    expect(value).toBeCloseTo(200 / 3, 5);
    expect(Math.round(value)).toBe(67);
  });

  it('ignores the progress a file had reached before it failed', () => {
    expect(overallProgress([{ status: 'error', progress: 80 }, { status: 'completed', progress: 100 }])).toBe(50);
  });

  it('averages files in flight and is 0 for an empty selection', () => {
    expect(overallProgress([{ status: 'uploading', progress: 40 }, { status: 'pending', progress: 0 }])).toBe(20);
    expect(overallProgress([])).toBe(0);
  });
});
