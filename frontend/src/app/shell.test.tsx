import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { server } from '@/testing/server';

describe('app shell', () => {
  it('lists the six menu links with Sources and Downloads after Find Videos, highlighting the current route', async () => {
    renderWithProviders({ route: '/settings' });
    const nav = await screen.findByRole('complementary', { name: 'Main navigation' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Scribevault', '/'],
      ['Find Videos', '/youtube-discovery'],
      ['Sources', '/sources'],
      ['Downloads', '/downloads'],
      ['Bulk Upload MP3s', '/download-mp3'],
      ['Create Transcripts', '/transcripts'],
      ['PDF to Markdown', '/convert-pdf'],
      ['Vault', '/vault'],
      ['Settings', '/settings'],
    ]);
    const current = within(nav).getByRole('link', { name: 'Settings' });
    expect(current).toHaveAttribute('aria-current', 'page');
    expect(current).toHaveClass('active');
    expect(within(nav).getByRole('link', { name: 'Vault' })).not.toHaveClass('active');
  });

  it('opens the menu with the toggle and closes it with the backdrop or a link', async () => {
    const { user, router } = renderWithProviders({ route: '/' });
    const toggle = await screen.findByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('menu-backdrop')).not.toBeInTheDocument();

    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu', expanded: true })).toBeInTheDocument();
    await user.click(screen.getByTestId('menu-backdrop'));
    expect(screen.queryByTestId('menu-backdrop')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');

    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(document.activeElement).toHaveClass('sidebar-close');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('menu-backdrop')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    // (Not PDF to Markdown: without handed-over transcripts it sends the user on to /transcripts.)
    await user.click(screen.getByRole('link', { name: 'Settings' }));
    expect(screen.queryByTestId('menu-backdrop')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings');
  });

  it('shows the account button with the user', async () => {
    renderWithProviders({ route: '/' });
    expect(await screen.findByRole('button', { name: 'Account: ada@example.com' })).toBeInTheDocument();
  });

  it.each([
    ['/', 'Find Videos'],
    ['/youtube-discovery', 'Find Videos'],
  ])('%s shows Find Videos with its search form', async (route, title) => {
    renderWithProviders({ route });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByLabelText('YouTube channel URL')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Coming soon' })).not.toBeInTheDocument();
  });

  it('/convert-pdf shows its title when transcripts were handed over', async () => {
    window.sessionStorage.setItem('transcripts', JSON.stringify([{ id: 't1', title: 'Talk', transcriptPath: 'transcripts/t1.txt' }]));
    server.use(http.get('/api/convert/templates', () => HttpResponse.json<Schema<'Envelope_Vec_TemplateView'>>({ data: [] })));
    renderWithProviders({ route: '/convert-pdf' });
    expect(await screen.findByRole('heading', { level: 1, name: 'PDF to Markdown' })).toBeInTheDocument();
  });

  it('gives Settings its subtitle', async () => {
    renderWithProviders({ route: '/settings' });
    expect(await screen.findByText('Manage your account, preferences, and scheduled syncs')).toBeInTheDocument();
  });
});
