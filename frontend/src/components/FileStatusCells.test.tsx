import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BadgeTone } from './StatusBadge';
import { FileStatusCells } from './FileStatusCells';

function renderRow(tone: BadgeTone, status = 'Status') {
  return render(
    <table>
      <tbody>
        <tr>
          <FileStatusCells status={status} tone={tone} progress={40} progressLabel="Upload progress of a.mp3" />
        </tr>
      </tbody>
    </table>,
  );
}

describe('FileStatusCells', () => {
  it('renders the Status and Progress cells: the badge, then the bar with its percentage', () => {
    renderRow('info', 'Uploading');
    const [status, progress] = screen.getAllByRole('cell');
    expect(status).toHaveAttribute('data-label', 'Status');
    expect(status).toHaveTextContent('Uploading');
    expect(status.querySelector('.badge')).toHaveClass('badge-info');
    expect(progress).toHaveAttribute('data-label', 'Progress');
    expect(progress).toHaveClass('col-progress');
    expect(screen.getByRole('progressbar', { name: 'Upload progress of a.mp3' })).toHaveAttribute('aria-valuenow', '40');
    expect(progress).toHaveTextContent('40%');
  });

  it.each([
    ['danger', 'tone-danger'],
    ['success', 'tone-success'],
    ['info', 'tone-primary'],
    ['neutral', 'tone-primary'],
    ['warning', 'tone-primary'],
  ] as const)('colours the bar of a %s badge %s', (tone, barClass) => {
    renderRow(tone);
    expect(screen.getByRole('progressbar')).toHaveClass(barClass);
  });
});
