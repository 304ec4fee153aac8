import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from './ProgressBar';

const indicatorOf = (bar: HTMLElement) => bar.querySelector<HTMLElement>('.progress-indicator')!;

describe('ProgressBar', () => {
  it('fills 67 % for 67 with the danger tone (the overall bar with a failed file)', () => {
    render(<ProgressBar value={67} label="Overall upload progress" tone="danger" showValue />);
    const bar = screen.getByRole('progressbar', { name: 'Overall upload progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '67');
    expect(bar).toHaveClass('progress-track', 'tone-danger');
    // The indicator is as wide as the track and slides left by the missing share.
    expect(indicatorOf(bar).style.transform).toBe('translateX(-33%)');
    expect(screen.getByText('67%')).toBeInTheDocument();
  });

  it('rounds fractions the same way for the fill and the text (200 / 3 → 67)', () => {
    render(<ProgressBar value={200 / 3} label="p" tone="danger" showValue />);
    const bar = screen.getByRole('progressbar', { name: 'p' });
    expect(bar).toHaveAttribute('aria-valuenow', '67');
    expect(indicatorOf(bar).style.transform).toBe('translateX(-33%)');
    expect(screen.getByText('67%')).toBeInTheDocument();
  });

  it('fills nothing at 0, everything at 100, and clamps out-of-range or missing values', () => {
    const { rerender } = render(<ProgressBar value={0} label="p" />);
    const transform = () => indicatorOf(screen.getByRole('progressbar')).style.transform;
    expect(transform()).toBe('translateX(-100%)');
    rerender(<ProgressBar value={100} label="p" tone="success" />);
    expect(transform()).toBe('translateX(-0%)');
    rerender(<ProgressBar value={140} label="p" />);
    expect(transform()).toBe('translateX(-0%)');
    rerender(<ProgressBar value={-5} label="p" />);
    expect(transform()).toBe('translateX(-100%)');
    rerender(<ProgressBar value={Number.NaN} label="p" />);
    expect(transform()).toBe('translateX(-100%)');
  });

  it('hides the fill of an empty bar, so no anti-aliased edge shows, and shows it from 1 on', () => {
    const { rerender } = render(<ProgressBar value={0} label="p" tone="danger" />);
    const indicator = () => indicatorOf(screen.getByRole('progressbar'));
    expect(indicator().style.visibility).toBe('hidden');
    rerender(<ProgressBar value={1} label="p" tone="danger" />);
    expect(indicator().style.visibility).toBe('');
    expect(indicator().style.transform).toBe('translateX(-99%)');
  });
});
