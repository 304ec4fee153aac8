import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_SETTINGS } from '@/api/userSettingsApi';
import { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { EMPTY_LIBRARY_STATS, errorResponse, server } from '@/testing/server';
import type { LibraryTranscript } from './libraryApi';

function item(id: string, title: string, extra: Partial<LibraryTranscript> = {}): LibraryTranscript {
  return {
    id,
    title,
    author: '',
    createdAt: '2026-01-05T10:00:00Z',
    lastExported: null,
    isStarred: false,
    gwthLevel: null,
    sourceType: 'PDF',
    rating: null,
    tags: [],
    duration: null,
    sectionId: null,
    fileName: `converted/pdfs/${id}.md`,
    sourceUrl: null,
    needsReview: false,
    ...extra,
  };
}

type BackendState = ReturnType<typeof backendState>;

function backendState(items: LibraryTranscript[]) {
  return {
    lists: [] as URLSearchParams[],
    uploads: [] as Array<{ name: string; template: string | null }>,
    saves: [] as unknown[],
    reprocess: [] as Array<{ id: string; body: unknown }>,
    contents: Object.fromEntries(items.map((entry) => [entry.id, `# ${entry.title}\n\nText layer only.`])) as Record<string, string>,
    reprocessFailure: null as null | { status: number; message?: string },
  };
}

/** The Vault's reads: the list, one item, its content and suggestions, stats, tags, sections. */
function vaultReadHandlers(items: LibraryTranscript[], state: BackendState) {
  return [
    http.get('/api/library/transcripts', ({ request }) => {
      const params = new URL(request.url).searchParams;
      state.lists.push(params);
      return HttpResponse.json<Schema<'TranscriptPage'>>({ data: items, meta: { page: 1, limit: Number(params.get('limit')), total: items.length, hasMore: false } });
    }),
    http.get('/api/library/transcripts/:id', ({ params }) => HttpResponse.json<Schema<'Envelope_TranscriptView'>>({ data: items.find((entry) => entry.id === params.id)! })),
    http.get('/api/library/transcripts/:id/content', ({ params }) => HttpResponse.json<Schema<'Envelope_ContentView'>>({ data: { content: state.contents[params.id as string] } })),
    http.get('/api/library/transcripts/:id/suggestions', () => HttpResponse.json<Schema<'Envelope_SuggestionsView'>>({ data: { suggestedTags: [], suggestedRating: 3 } })),
    http.get('/api/library/stats', () =>
      HttpResponse.json<Schema<'Envelope_LibraryStats'>>({ data: { ...EMPTY_LIBRARY_STATS, totalTranscripts: items.length } }),
    ),
    http.get('/api/library/tags', () => HttpResponse.json<Schema<'Envelope_Vec_TagView'>>({ data: [] })),
    http.get('/api/library/syllabus-sections', () => HttpResponse.json<Schema<'Envelope_Vec_SectionView'>>({ data: [] })),
  ];
}

/** The conversion's templates and the PDF upload, whose files carry their fate in their bytes. */
function convertHandlers(state: BackendState) {
  return [
    http.get('/api/convert/templates', () =>
      HttpResponse.json<Schema<'Envelope_Vec_TemplateView'>>({ data: [{ id: 'tpl-1', name: 'Plain', body: '# {{title}}\n{{content}}', createdAt: '', updatedAt: '' }] }),
    ),
    http.post('/api/convert/pdf', async ({ request }) => {
      const form = await request.formData();
      const file = form.get('pdf') as File;
      // The part is Node's File here (MSW parses the body), which has text().
      const text = await file.text();
      const template = form.get('template');
      // multipart/form-data turns a text field's line breaks into CRLF (as browsers do).
      state.uploads.push({ name: text, template: typeof template === 'string' ? template.replace(/\r\n/g, '\n') : null });
      // The test files carry their fate in their bytes (jsdom's XMLHttpRequest drops part names).
      if (text.includes('locked')) return errorResponse(422, 'This PDF is password-protected', 'UNPROCESSABLE');
      if (text.includes('huge')) return new HttpResponse(null, { status: 413 });
      const id = `pdf-${state.uploads.length}`;
      return HttpResponse.json<Schema<'Envelope_PdfView'>>({
        data: {
          id,
          title: 'Field notes',
          content: '# Field notes\n\nMulch keeps the soil **moist**.',
          markdownPath: `converted/pdfs/${id}.md`,
          pdfPath: `converted/pdfs/${id}.pdf`,
          pages: 4,
          ocrPages: text.includes('scan') ? [3, 4] : [],
          unknownPlaceholders: [],
        },
      });
    }),
  ];
}

/** Vault save and the OCR reprocessing of one item. */
function vaultWriteHandlers(state: BackendState) {
  return [
    http.post('/api/vault/save', async ({ request }) => {
      const body = (await request.json()) as { files: Array<{ title: string }> };
      state.saves.push(body);
      return HttpResponse.json<Schema<'Envelope_Vec_TranscriptView'>>({
        data: body.files.map((file, index) => ({
          id: `new-${index}`,
          title: file.title,
          author: '',
          createdAt: '2026-01-01T00:00:00Z',
          isStarred: false,
          needsReview: false,
          sourceType: 'PDF',
          tags: [],
        })),
      });
    }),
    http.post('/api/pdf-sources/reprocess-transcript/:id', async ({ params, request }) => {
      const id = params.id as string;
      state.reprocess.push({ id, body: await request.json() });
      const fail = state.reprocessFailure;
      if (fail) {
        return fail.message
          ? errorResponse(fail.status, fail.message)
          : new HttpResponse(null, { status: fail.status });
      }
      state.contents[id] = '# Scanned\n\nCompost needs **air** and water.';
      return HttpResponse.json<Schema<'Envelope_PdfView'>>({
        data: { id, title: 'Scanned', content: state.contents[id], markdownPath: `converted/pdfs/${id}.md`, pdfPath: `converted/pdfs/${id}.pdf`, pages: 2, ocrPages: [], unknownPlaceholders: [] },
      });
    }),
  ];
}

/** Just enough of the Vault, the PDF conversion and vault save, recording the calls. */
function backend(items: LibraryTranscript[] = []) {
  const state = backendState(items);
  server.use(...vaultReadHandlers(items, state), ...convertHandlers(state), ...vaultWriteHandlers(state));
  return state;
}

const pdf = (name: string, body = 'plain', type = 'application/pdf') => new File([`%PDF-1.4 ${body}`], name, { type });

async function openImport() {
  const view = renderWithProviders({ route: '/vault', userOptions: { applyAccept: false } });
  await screen.findByRole('heading', { name: 'Vault', level: 1 });
  await view.user.click(screen.getByRole('button', { name: 'Import PDF' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import PDF' });
  return { ...view, dialog };
}

const rowOf = (name: string) => screen.getAllByTestId('import-row').find((row) => within(row).queryByText(name))!;
const toastTexts = () => screen.queryAllByRole('status').map((toast) => toast.textContent ?? '');
const hasToast = (text: string) => toastTexts().some((toast) => toast.includes(text));

describe('Vault: Import PDF', () => {
  it('takes PDFs only and names the files it refused', async () => {
    backend();
    const { user, dialog } = await openImport();
    await user.upload(within(dialog).getByLabelText('Choose PDFs'), [
      pdf('notes.pdf'),
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
      pdf('Scan.PDF', 'plain', ''),
    ]);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Only PDF files can be imported. Not added: notes.txt');
    expect(screen.getAllByTestId('import-row')).toHaveLength(2);
    expect(within(rowOf('notes.pdf')).getByText('Pending')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Convert (2)' })).toBeEnabled();
  });

  it('takes dropped PDFs the same way and refuses the rest', async () => {
    backend();
    const { dialog } = await openImport();
    fireEvent.drop(within(dialog).getByTestId('pdf-dropzone'), {
      dataTransfer: { files: [pdf('dropped.pdf'), new File(['x'], 'slides.pptx', { type: 'application/vnd.ms-powerpoint' })], types: ['Files'] },
    });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Not added: slides.pptx');
    expect(screen.getAllByTestId('import-row')).toHaveLength(1);
    expect(within(rowOf('dropped.pdf')).getByText('Pending')).toBeInTheDocument();
  });

  it('uploads each file with its progress and shows the result, the OCR pages and the server errors per file', async () => {
    const state = backend();
    const { user, dialog } = await openImport();
    await user.selectOptions(within(dialog).getByLabelText('Template'), 'Plain');
    await user.upload(within(dialog).getByLabelText('Choose PDFs'), [pdf('scan.pdf', 'scan'), pdf('locked.pdf', 'locked'), pdf('huge.pdf', 'huge')]);
    await user.click(within(dialog).getByRole('button', { name: 'Convert (3)' }));
    await waitFor(() => expect(rowOf('huge.pdf')).toHaveAttribute('data-status', 'error'));
    expect(rowOf('scan.pdf')).toHaveAttribute('data-status', 'completed');
    expect(within(rowOf('scan.pdf')).getByRole('progressbar', { name: 'Upload progress of scan.pdf' })).toHaveAttribute('aria-valuenow', '100');
    expect(within(rowOf('scan.pdf')).getByTestId('ocr-notice')).toHaveTextContent('Pages 3, 4 have no text layer; use Premium OCR after saving');
    expect(within(rowOf('scan.pdf')).getByText('4 pages · Field notes')).toBeInTheDocument();
    expect(within(rowOf('locked.pdf')).getByText('This PDF is password-protected')).toBeInTheDocument();
    expect(within(rowOf('huge.pdf')).getByText('This PDF is larger than the server accepts')).toBeInTheDocument();
    expect(state.uploads.map((upload) => upload.template)).toEqual(['# {{title}}\n{{content}}', '# {{title}}\n{{content}}', '# {{title}}\n{{content}}']);
    await waitFor(() => expect(hasToast('1 converted, 2 failed')).toBe(true));

    await user.click(within(rowOf('scan.pdf')).getByRole('button', { name: 'Preview scan.pdf' }));
    const preview = await screen.findByTestId('markdown-preview');
    expect(within(preview).getByRole('heading', { level: 1, name: 'Field notes' })).toBeInTheDocument();
    await user.click(within(preview).getByRole('button', { name: 'Close preview' }));

    await user.click(within(dialog).getByRole('button', { name: 'Save to Vault (1)' }));
    await waitFor(() => expect(hasToast('Saved to Vault')).toBe(true));
    expect(state.saves).toEqual([
      { files: [{ title: 'Field notes', content: '# Field notes\n\nMulch keeps the soil **moist**.', path: 'converted/pdfs/pdf-1.md' }] },
    ]);
    expect(within(rowOf('scan.pdf')).getByText('Saved')).toBeInTheDocument();
    // Nothing left to save.
    await user.click(within(dialog).getByRole('button', { name: 'Save to Vault' }));
    await waitFor(() => expect(hasToast('No converted files to save')).toBe(true));
  });
});

describe('Vault: settings and premium OCR', () => {
  it('opens in the default view of the settings with their page size; a pick is remembered until the setting changes', async () => {
    server.use(http.get('/api/user/settings', () => HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: { ...DEFAULT_USER_SETTINGS, defaultView: 'grid', transcriptsPerPage: 50 } })));
    const state = backend([item('p1', 'Field notes')]);
    const { user } = renderWithProviders({ route: '/vault' });
    const list = await screen.findByRole('list', { name: 'Not Downloaded' });
    expect(list).toHaveClass('grid');
    expect(state.lists.map((params) => params.get('limit'))).toEqual(['50']);
    await user.click(screen.getByRole('radio', { name: 'List view' }));
    expect(JSON.parse(window.localStorage.getItem('vaultView')!)).toEqual({ view: 'list', defaultView: 'grid' });
  });

  it('keeps a pick made under the same default view, and drops one made under another', async () => {
    window.localStorage.setItem('vaultView', JSON.stringify({ view: 'list', defaultView: 'grid' }));
    server.use(http.get('/api/user/settings', () => HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: { ...DEFAULT_USER_SETTINGS, defaultView: 'grid' } })));
    backend([item('p1', 'Field notes')]);
    const first = renderWithProviders({ route: '/vault' });
    expect(await screen.findByRole('list', { name: 'Not Downloaded' })).toHaveClass('list');
    first.unmount();

    window.localStorage.setItem('vaultView', JSON.stringify({ view: 'grid', defaultView: 'grid' }));
    server.use(http.get('/api/user/settings', () => HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: { ...DEFAULT_USER_SETTINGS, defaultView: 'list' } })));
    renderWithProviders({ route: '/vault' });
    expect(await screen.findByRole('list', { name: 'Not Downloaded' })).toHaveClass('list');
  });

  it("reprocesses a PDF item with OCR and shows the new content; only PDF items offer it", async () => {
    const state = backend([item('p1', 'Field notes'), item('a1', 'A talk', { sourceType: 'AUDIO' })]);
    const { user } = renderWithProviders({ route: '/vault?item=p1' });
    const detail = await screen.findByTestId('vault-detail');
    await within(detail).findByText('Text layer only.');
    await user.click(within(detail).getByRole('button', { name: 'Reprocess with OCR (premium)' }));
    await within(detail).findByText('air', { selector: 'strong' });
    expect(state.reprocess).toEqual([{ id: 'p1', body: { usePremiumMode: true } }]);
    await waitFor(() => expect(hasToast('every page has text now')).toBe(true));

    state.reprocessFailure = { status: 503, message: 'OCR needs tesseract-ocr and poppler-utils on the server' };
    await user.click(within(detail).getByRole('button', { name: 'Reprocess with OCR (premium)' }));
    await waitFor(() => expect(hasToast('OCR needs tesseract-ocr and poppler-utils on the server')).toBe(true));
    state.reprocessFailure = { status: 500 };
    await user.click(within(detail).getByRole('button', { name: 'Reprocess with OCR (premium)' }));
    await waitFor(() => expect(hasToast('Failed to reprocess with premium mode')).toBe(true));
  });

  it('offers no OCR for an audio item', async () => {
    backend([item('a1', 'A talk', { sourceType: 'AUDIO' })]);
    renderWithProviders({ route: '/vault?item=a1' });
    const detail = await screen.findByTestId('vault-detail');
    await within(detail).findByText('Text layer only.');
    expect(within(detail).queryByRole('button', { name: 'Reprocess with OCR (premium)' })).not.toBeInTheDocument();
  });
});
