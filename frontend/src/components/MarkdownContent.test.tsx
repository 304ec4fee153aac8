import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MarkdownContent } from './MarkdownContent';

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('MarkdownContent images (security review F18)', () => {
  it('turns a remote image into a link named by its alt text, and loads nothing', () => {
    const { container } = render(<MarkdownContent content="Before ![Quarterly chart](https://tracker.example/pixel.png?reader=1) after" />);
    expect(container.querySelector('img')).toBeNull();
    const link = screen.getByRole('link', { name: 'Quarterly chart' });
    expect(link).toHaveAttribute('href', 'https://tracker.example/pixel.png?reader=1');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('names the link by its address when the image has no alt text, also for //host addresses', () => {
    const { container } = render(<MarkdownContent content={'![](https://tracker.example/a.png)\n\n![Other](//tracker.example/b.png)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'https://tracker.example/a.png' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Other' })).toHaveAttribute('href', '//tracker.example/b.png');
  });

  it('shows images from this origin and inline data: images', () => {
    render(<MarkdownContent content={`![Logo](/favicon.svg) ![Here too](${window.location.origin}/a.png) ![Dot](${PIXEL})`} />);
    expect(screen.getByRole('img', { name: 'Logo' })).toHaveAttribute('src', '/favicon.svg');
    expect(screen.getByRole('img', { name: 'Here too' })).toHaveAttribute('src', `${window.location.origin}/a.png`);
    expect(screen.getByRole('img', { name: 'Dot' })).toHaveAttribute('src', PIXEL);
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('renders no raw HTML image and keeps unsafe schemes out', () => {
    const { container } = render(
      <MarkdownContent content={'<img src="https://tracker.example/raw.png">\n\n![x](javascript:alert(1)) [y](data:text/html,hi)'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.innerHTML).not.toContain('tracker.example/raw.png');
    expect(container.innerHTML).not.toContain('javascript:');
    expect(container.innerHTML).not.toContain('data:text/html');
  });
});
