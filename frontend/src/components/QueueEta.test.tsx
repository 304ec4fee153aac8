import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { QueuedFile } from '@/api/queueApi';
import { describeBasis, describeQueuedFile, formatSpan, QueueEta } from './QueueEta';

/** Noon local time, so that 'today' and 'another day' do not depend on the machine's zone. */
const NOW = new Date(2026, 2, 2, 12, 0, 0);
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();

function queued(overrides: Partial<QueuedFile>): QueuedFile {
  return {
    fileId: 'f1',
    jobId: 'job-1',
    title: 'Interview',
    status: 'pending',
    position: 1,
    etaSeconds: 900,
    estimatedStartAt: at(5),
    estimatedEndAt: at(15),
    waitsForWindow: false,
    ...overrides,
  };
}

describe('queue estimates in words', () => {
  it('spans read as minutes, hours and days', () => {
    expect(formatSpan(20_000)).toBe('under a minute');
    expect(formatSpan(12 * 60_000)).toBe('12 min');
    expect(formatSpan(80 * 60_000)).toBe('1 h 20 min');
    expect(formatSpan(120 * 60_000)).toBe('2 h');
    expect(formatSpan(51 * 3_600_000)).toBe('2 d 3 h');
  });

  it('a waiting file says its place, when it starts and when it is done', () => {
    expect(describeQueuedFile(queued({ position: 3 }), NOW)).toEqual({
      place: '#3 in queue',
      timing: '≈ starts in 5 min · done by 12:15 PM',
    });
    expect(describeQueuedFile(queued({ estimatedStartAt: at(0) }), NOW).timing).toBe('≈ starts now · done by 12:15 PM');
  });

  it('a running file says it runs and when it is done', () => {
    expect(describeQueuedFile(queued({ position: 0, status: 'transcribing', estimatedStartAt: at(0), estimatedEndAt: at(3) }), NOW)).toEqual({
      place: 'Running now',
      timing: '≈ done in 3 min, by 12:03 PM',
    });
  });

  it("an overnight file says when its window opens, with the day when it is not today", () => {
    const night = queued({ position: 2, status: 'scheduled', waitsForWindow: true, estimatedStartAt: at(13 * 60), estimatedEndAt: at(13 * 60 + 4) });
    expect(describeQueuedFile(night, NOW)).toEqual({
      place: '#2 in queue',
      timing: 'overnight window opens Mar 3, 1:00 AM · ≈ done by Mar 3, 1:04 AM',
    });
  });

  it('the basis says whether anything was measured', () => {
    expect(describeBasis({ realTimeFactor: 1, measuredFiles: 0, workers: 1 })).toMatch(/nothing was measured on this machine yet/);
    expect(describeBasis({ realTimeFactor: 0.42, measuredFiles: 20, workers: 2 })).toBe(
      "Times are estimates from this machine's last 20 files: 0.42 s of work per second of audio, 2 files at a time.",
    );
  });

  it('the line is marked as an estimate and explains itself on hover', () => {
    render(<QueueEta file={queued({ position: 4 })} basis={{ realTimeFactor: 0.5, measuredFiles: 3, workers: 1 }} now={NOW} />);
    const eta = screen.getByTestId('queue-eta');
    expect(eta).toHaveTextContent('#4 in queue ≈ starts in 5 min · done by 12:15 PM (estimate)');
    expect(eta).toHaveAttribute('title', expect.stringContaining("this machine's last 3 files: 0.50 s"));
  });
});
