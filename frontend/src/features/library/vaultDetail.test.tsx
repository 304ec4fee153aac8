import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { server } from '@/testing/server';

import { captureDownloads, cardTitles, openDetail, toasts, transcript, vaultBackend } from '@/testing/vaultBackend';

describe('/vault detail view', () => {
  it('opens an item by its id, renders its content as sanitised markdown, and closes', async () => {
    vaultBackend([transcript('t1', 'Welcome talk')], {
      contents: {
        t1: [
          '# Soil notes',
          '',
          'Some **bold** words and a [safe link](https://example.com) and a [bad link](javascript:alert(1)).',
          '',
          '- first point',
          '- second point',
          '',
          '<script>window.__pwned = true</script>',
          '',
          '<img src="x" onerror="window.__pwned = true">',
          '',
          '<a href="javascript:alert(1)" onclick="alert(1)">raw link</a>',
        ].join('\n'),
      },
    });
    const { user, router } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Welcome talk');
    expect(router.state.location.search).toBe('?item=t1');
    const content = within(dialog).getByTestId('transcript-content');
    expect(await within(content).findByRole('heading', { name: 'Soil notes', level: 1 })).toBeInTheDocument();
    expect(within(content).getByText('bold').tagName).toBe('STRONG');
    expect(within(content).getAllByRole('listitem').map((entry) => entry.textContent)).toEqual(['first point', 'second point']);
    expect(within(content).getByRole('link', { name: 'safe link' })).toHaveAttribute('href', 'https://example.com');
    expect(within(content).getByRole('link', { name: 'safe link' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    // Nothing executable reaches the DOM.
    expect(content.querySelector('script, img, iframe, [onerror], [onclick]')).toBeNull();
    for (const link of content.querySelectorAll('a')) expect(link.getAttribute('href') ?? '').not.toMatch(/^javascript:/i);
    expect((window as unknown as { __pwned?: boolean }).__pwned).toBeUndefined();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('');
  });

  it('/vault?item=<id> opens that item from GET /library/transcripts/{id}, even when the list does not hold it', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk'), transcript('t9', 'Deep item', { isStarred: true })], {
      contents: { t9: 'Deep body' },
    });
    server.use(
      http.get('/api/library/transcripts', ({ request }) => {
        backend.lists.push(new URL(request.url).searchParams);
        return HttpResponse.json<Schema<'TranscriptPage'>>({ data: [backend.items[0]], meta: { page: 1, limit: 20, total: 1, hasMore: false } });
      }),
    );
    renderWithProviders({ route: '/vault?item=t9' });
    const dialog = await screen.findByRole('dialog', { name: 'Deep item' });
    expect(await within(dialog).findByText('Deep body')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Star' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('an unknown item shows the server message in the dialog', async () => {
    vaultBackend([]);
    renderWithProviders({ route: '/vault?item=nope' });
    const dialog = await screen.findByRole('dialog', { name: 'Transcript unavailable' });
    expect(within(dialog).getByText('Transcript not found')).toBeInTheDocument();
  });

  it("a failed content fetch says 'Failed to fetch transcript content'", async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk')]);
    backend.fail.content = { status: 404 };
    const { user } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Welcome talk');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to fetch transcript content');
  });
});

describe('/vault detail view: editing the details', () => {
  it('edits the details (title, author, growth level, section), sending only what changed', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk')], { contents: { t1: 'Body' } });
    const { user } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Welcome talk');
    await user.click(within(dialog).getByRole('button', { name: 'Edit details' }));
    const form = within(dialog).getByRole('form', { name: 'Edit details' });
    await user.clear(within(form).getByLabelText('Title'));
    await user.type(within(form).getByLabelText('Title'), 'Welcome, revised');
    await user.selectOptions(within(form).getByLabelText('Growth level'), '3 · Understood');
    await user.selectOptions(within(form).getByLabelText('Section'), await within(form).findByRole('option', { name: 'Gardening basics' }));
    await user.click(within(form).getByRole('button', { name: 'Save details' }));
    await waitFor(() =>
      expect(backend.calls).toContainEqual({
        method: 'PUT',
        path: 'metadata/t1',
        body: { title: 'Welcome, revised', gwthLevel: 3, sectionId: 'sec-1' },
      }),
    );
    expect(await screen.findByRole('dialog', { name: 'Welcome, revised' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('form', { name: 'Edit details' })).not.toBeInTheDocument();
    expect(within(dialog).getByText('3 · Understood')).toBeInTheDocument();
    expect(within(dialog).getByText('Gardening basics')).toBeInTheDocument();
    // The list shows the new title too.
    expect(await screen.findByRole('button', { name: 'Welcome, revised', hidden: true })).toBeInTheDocument();
  });

  it("a failed metadata save toasts 'Failed to update metadata', or the server's message, and keeps the form", async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk')]);
    backend.fail.metadata = { status: 500 };
    const { user, store } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Welcome talk');
    await user.click(within(dialog).getByRole('button', { name: 'Edit details' }));
    await user.type(within(dialog).getByLabelText('Author'), 'Ada');
    await user.click(within(dialog).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(toasts(store)).toContainEqual({ title: 'Error', description: 'Failed to update metadata' }));
    expect(within(dialog).getByRole('form', { name: 'Edit details' })).toBeInTheDocument();

    backend.fail.metadata = { status: 400, message: 'author must be at most 200 characters' };
    await user.click(within(dialog).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(toasts(store)).toContainEqual({ title: 'Error', description: 'author must be at most 200 characters' }));
  });

  it('rates and stars the item', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk')]);
    const { user } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Welcome talk');
    await user.click(within(dialog).getByRole('radio', { name: '4 stars' }));
    await waitFor(() => expect(within(dialog).getByRole('radio', { name: '4 stars' })).toBeChecked());
    expect(backend.calls).toContainEqual({ method: 'PUT', path: 'metadata/t1', body: { rating: 4 } });
    await user.click(within(dialog).getByRole('button', { name: 'Star' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Star' })).toHaveAttribute('aria-pressed', 'true'));
    expect(backend.calls).toContainEqual({ method: 'PUT', path: 'metadata/t1', body: { isStarred: true } });
    await user.click(within(dialog).getByRole('button', { name: 'Clear rating' }));
    await waitFor(() => expect(backend.calls).toContainEqual({ method: 'PUT', path: 'metadata/t1', body: { rating: null } }));
  });
});

describe('/vault detail view: tags and content', () => {
  it('offers the suggested tags and rating; adds a suggested tag, a typed tag, and removes one', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk', { tags: ['talk'] })]);
    backend.suggestions.t1 = { suggestedTags: ['soil', 'talk', 'garden'], suggestedRating: 4 };
    const { user } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Welcome talk');
    const suggested = await within(dialog).findByRole('group', { name: 'Suggested tags' });
    // A tag the item has is not offered again.
    expect(within(suggested).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual([
      'Add suggested tag soil',
      'Add suggested tag garden',
    ]);
    expect(within(dialog).getByTestId('suggested-rating')).toHaveTextContent('Suggested rating: 4');

    await user.click(within(suggested).getByRole('button', { name: 'Add suggested tag soil' }));
    await waitFor(() => expect(backend.calls).toContainEqual({ method: 'PUT', path: 'metadata/t1', body: { tags: ['talk', 'soil'] } }));
    const tagList = within(dialog).getByRole('list', { name: 'Tags' });
    await waitFor(() => expect(within(tagList).getAllByRole('listitem').map((tag) => tag.textContent)).toEqual(['talk', 'soil']));
    expect(within(dialog).queryByRole('button', { name: 'Add suggested tag soil' })).not.toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Add a tag'), 'compost{Enter}');
    await waitFor(() =>
      expect(backend.calls).toContainEqual({ method: 'PUT', path: 'metadata/t1', body: { tags: ['talk', 'soil', 'compost'] } }),
    );
    await user.click(await within(dialog).findByRole('button', { name: 'Remove tag talk' }));
    await waitFor(() => expect(backend.calls).toContainEqual({ method: 'PUT', path: 'metadata/t1', body: { tags: ['soil', 'compost'] } }));

    await user.click(within(dialog).getByRole('button', { name: 'Use it' }));
    await waitFor(() => expect(backend.calls).toContainEqual({ method: 'PUT', path: 'metadata/t1', body: { rating: 4 } }));
  });

  it('a failed suggestions fetch offers no tags and a rating of 5', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk')]);
    backend.fail.suggestions = { status: 404 };
    const { user, store } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Welcome talk');
    expect(await within(dialog).findByTestId('suggested-rating')).toHaveTextContent('Suggested rating: 5');
    expect(within(dialog).queryByRole('group', { name: 'Suggested tags' })).not.toBeInTheDocument();
    expect(toasts(store)).toEqual([]);
  });

  it('edits the content and renders the saved text; a failed save toasts the §8 message', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk')], { contents: { t1: 'Old text' } });
    const { user, store } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Welcome talk');
    await within(dialog).findByText('Old text');
    await user.click(within(dialog).getByRole('button', { name: 'Edit content' }));
    const editor = within(dialog).getByLabelText('Content (markdown)');
    expect(editor).toHaveValue('Old text');

    backend.fail.updateContent = { status: 500 };
    await user.clear(editor);
    await user.type(editor, '## New heading');
    await user.click(within(dialog).getByRole('button', { name: 'Save content' }));
    await waitFor(() => expect(toasts(store)).toContainEqual({ title: 'Error', description: 'Failed to update content' }));
    expect(within(dialog).getByLabelText('Content (markdown)')).toBeInTheDocument();

    delete backend.fail.updateContent;
    await user.click(within(dialog).getByRole('button', { name: 'Save content' }));
    expect(await within(dialog).findByRole('heading', { name: 'New heading', level: 2 })).toBeInTheDocument();
    expect(backend.calls).toContainEqual({ method: 'PUT', path: 'content/t1', body: { content: '## New heading' } });
  });
});

describe('/vault detail view: export and delete', () => {
  it('exports the item in a chosen format (srt and vtt only for audio) through the download link', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk'), transcript('p1', 'A PDF', { sourceType: 'PDF' })]);
    const downloads = captureDownloads();
    const { user, store } = renderWithProviders({ route: '/vault' });
    let dialog = await openDetail(user, 'Welcome talk');
    const format = within(dialog).getByLabelText('Export format');
    expect(format).toHaveValue('markdown');
    expect(within(format).getAllByRole('option')).toHaveLength(5);
    await user.selectOptions(format, 'Subtitles (.srt)');
    const lists = backend.lists.length;
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(downloads).toEqual([{ href: '/api/library/downloads/one-t1', download: 'Welcome talk.srt' }]));
    expect(backend.calls).toContainEqual({ method: 'POST', path: 'export/t1', body: { format: 'srt' } });
    expect(toasts(store)).toContainEqual({ title: 'Download started', description: 'Welcome talk.srt' });
    // lastExported changed: the detail and the list (its groups) are fetched again.
    expect(await within(dialog).findByText('Feb 01, 2024')).toBeInTheDocument();
    await waitFor(() => expect(backend.lists.length).toBeGreaterThan(lists));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('button', { name: /Downloaded on Feb 01, 2024/ })).toBeInTheDocument();

    dialog = await openDetail(user, 'A PDF');
    expect(within(within(dialog).getByLabelText('Export format')).getAllByRole('option').map((option) => option.getAttribute('value'))).toEqual([
      'markdown',
      'txt',
      'json',
    ]);
    backend.fail.export = { status: 502 };
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(toasts(store)).toContainEqual({ title: 'Error', description: 'Failed to export transcript' }));
    expect(downloads).toHaveLength(1);
  });

  it('deletes after confirmation; Cancel keeps the item; a failure toasts the §8 message', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk'), transcript('t2', 'Meeting notes')]);
    const { user, store, router } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Welcome talk');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    let confirm = await screen.findByRole('dialog', { name: 'Delete transcript?' });
    expect(confirm).toHaveTextContent('Welcome talk will be removed from your Vault. This cannot be undone.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete transcript?' })).not.toBeInTheDocument());
    expect(backend.calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    backend.fail.delete = { status: 500 };
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    confirm = await screen.findByRole('dialog', { name: 'Delete transcript?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts(store)).toContainEqual({ title: 'Error', description: 'Failed to delete transcript' }));
    expect(screen.getByRole('dialog', { name: 'Delete transcript?' })).toBeInTheDocument();

    delete backend.fail.delete;
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toasts(store)).toContainEqual({ title: 'Transcript deleted', description: 'Welcome talk' });
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(cardTitles()).toEqual(['Meeting notes']));
  });
});
