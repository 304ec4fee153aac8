import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { ConvertTemplate } from '@/api/convertTemplatesApi';
import { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { errorResponse, server } from '@/testing/server';
import { unknownPlaceholdersIn, readHandedOverTranscripts, rowsToConvert, newConversionItem } from './conversionItems';

/** What the transcription screen keeps in session storage: its whole file list. */
const HANDED_OVER = [
  { id: 'f1', title: 'Welcome talk', mp3Path: 'uploads/a.mp3', status: 'completed', transcriptPath: 'transcripts/f1.txt' },
  { id: 'f2', title: 'Garden tour', mp3Path: 'uploads/b.mp3', status: 'completed', transcriptPath: 'transcripts/f2.txt' },
  { id: 'f3', title: 'Still running', mp3Path: 'uploads/c.mp3', status: 'transcribing', transcriptPath: null },
  { id: 'f4', title: 'Failed one', mp3Path: 'uploads/d.mp3', status: 'error', transcriptPath: null },
];

function handOver(entries: unknown[] = HANDED_OVER) {
  window.sessionStorage.setItem('transcripts', JSON.stringify(entries));
}

/** /api/convert/* and /api/vault/save from memory, recording each request. */
function conversionBackend({ templates = [] as ConvertTemplate[] } = {}) {
  const state = {
    batches: [] as Array<{ transcripts: Array<{ id: string; title: string; transcriptPath: string }>; template?: string }>,
    saves: [] as unknown[],
    createdTemplates: [] as unknown[],
    templates: [...templates],
    failIds: new Set<string>(),
    batchFailure: null as null | { status: number; message?: string },
    saveFailure: null as null | { status: number; message?: string },
    unknownPlaceholders: [] as string[],
  };
  const failureOf = (fail: { status: number; message?: string }) =>
    fail.message
      ? errorResponse(fail.status, fail.message)
      : new HttpResponse(null, { status: fail.status });
  server.use(
    http.get('/api/convert/templates', () => HttpResponse.json<Schema<'Envelope_Vec_TemplateView'>>({ data: state.templates })),
    http.post('/api/convert/templates', async ({ request }) => {
      const body = (await request.json()) as { name: string; body: string };
      state.createdTemplates.push(body);
      const template = { id: `tpl-${state.templates.length + 1}`, ...body, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
      state.templates.push(template);
      return HttpResponse.json<Schema<'Envelope_TemplateView'>>({ data: template }, { status: 201 });
    }),
    http.post('/api/convert/markdown/batch', async ({ request }) => {
      const body = (await request.json()) as (typeof state.batches)[number];
      state.batches.push(body);
      if (state.batchFailure) return failureOf(state.batchFailure);
      await delay(20);
      const results = body.transcripts
        .filter((transcript) => !state.failIds.has(transcript.id))
        .map((transcript) => ({
          id: transcript.id,
          markdownPath: `converted/transcripts/${transcript.id}.md`,
          content: `# ${transcript.title}\n\nParagraph of **${transcript.id}**.\n\n<script>alert(1)</script>`,
        }));
      const failed = body.transcripts.filter((transcript) => state.failIds.has(transcript.id)).map((transcript) => ({ id: transcript.id, message: 'Transcript not found' }));
      return HttpResponse.json<Schema<'Envelope_MarkdownBatchView'>>({ data: { results, failed, unknownPlaceholders: state.unknownPlaceholders } });
    }),
    http.post('/api/vault/save', async ({ request }) => {
      const body = (await request.json()) as { files: Array<{ title: string }> };
      state.saves.push(body);
      if (state.saveFailure) return failureOf(state.saveFailure);
      return HttpResponse.json<Schema<'Envelope_Vec_TranscriptView'>>({
        data: body.files.map((file, index) => ({
          id: `item-${index}`,
          title: file.title,
          author: '',
          createdAt: '2026-01-01T00:00:00Z',
          isStarred: false,
          needsReview: false,
          sourceType: 'AUDIO',
          tags: [],
        })),
      });
    }),
  );
  return state;
}

async function renderConvert() {
  const view = renderWithProviders({ route: '/convert-pdf' });
  await screen.findByRole('heading', { name: 'PDF to Markdown', level: 1 });
  return view;
}

const rows = () => screen.queryAllByTestId('conversion-row');
const rowOf = (title: string) => rows().find((row) => within(row).queryByText(title))!;
const toastTexts = () => screen.queryAllByRole('status').map((toast) => toast.textContent ?? '');
const hasToast = (text: string) => toastTexts().some((toast) => toast.includes(text));

describe('/convert-pdf', () => {
  it("without handed-over transcripts toasts 'No transcripts available for conversion' and goes to /transcripts", async () => {
    const { router } = renderWithProviders({ route: '/convert-pdf' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/transcripts'));
    await waitFor(() => expect(hasToast('No transcripts available for conversion')).toBe(true));
    expect(toastTexts().filter((text) => text.includes('No transcripts available for conversion'))).toHaveLength(1);
  });

  it('does the same when nothing handed over is finished', async () => {
    handOver([HANDED_OVER[2], HANDED_OVER[3]]);
    const { router } = renderWithProviders({ route: '/convert-pdf' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/transcripts'));
  });

  it('lists the completed transcripts (and bare {id, title, transcriptPath} entries) as pending rows', async () => {
    conversionBackend();
    handOver([...HANDED_OVER, { id: 'x9', title: 'Bare entry', transcriptPath: 'transcripts/x9.txt' }]);
    await renderConvert();
    expect(rows().map((row) => within(row).getByText(/./, { selector: '.file-title' }).textContent?.trim())).toEqual([
      'Welcome talk',
      'Garden tour',
      'Bare entry',
    ]);
    for (const row of rows()) {
      expect(row).toHaveAttribute('data-status', 'pending');
      expect(within(row).getByText('Pending')).toBeInTheDocument();
      expect(within(row).getByRole('button', { name: /^Preview/ })).toBeDisabled();
      expect(within(row).getByRole('button', { name: /^Download/ })).toBeDisabled();
    }
    expect(screen.getByRole('button', { name: 'Convert (3)' })).toBeEnabled();
  });

  it('lists the placeholders and warns about unknown ones while typing', async () => {
    conversionBackend();
    handOver();
    const { user } = await renderConvert();
    const help = screen.getByText(/Leave it empty for the default layout/).closest('div')!;
    for (const name of ['{{title}}', '{{content}}', '{{date}}', '{{source}}']) expect(within(help).getByText(name)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Custom template'), '# {{{{title}} by {{{{author}}');
    expect(screen.getByText(/Not a placeholder, kept as written: \{\{author\}\}/)).toBeInTheDocument();
  });
});

describe('/convert-pdf: converting', () => {
  it('converts with the template: per-row statuses, failures from `failed`, unknown placeholders reported', async () => {
    const backend = conversionBackend();
    backend.failIds.add('f2');
    backend.unknownPlaceholders = ['author'];
    handOver();
    const { user } = await renderConvert();
    await user.type(screen.getByLabelText('Custom template'), '## {{{{title}}');
    await user.click(screen.getByRole('button', { name: 'Convert (2)' }));
    await waitFor(() => expect(rowOf('Welcome talk')).toHaveAttribute('data-status', 'completed'));
    expect(rowOf('Garden tour')).toHaveAttribute('data-status', 'error');
    expect(within(rowOf('Garden tour')).getByText('Transcript not found')).toBeInTheDocument();
    expect(within(rowOf('Welcome talk')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(backend.batches).toEqual([
      {
        transcripts: [
          { id: 'f1', title: 'Welcome talk', transcriptPath: 'transcripts/f1.txt' },
          { id: 'f2', title: 'Garden tour', transcriptPath: 'transcripts/f2.txt' },
        ],
        template: '## {{title}}',
      },
    ]);
    expect(screen.getByText(/they were kept as written: \{\{author\}\}/)).toBeInTheDocument();
    await waitFor(() => expect(hasToast('1 converted, 1 failed')).toBe(true));
    // Converting again sends only the failed row.
    backend.failIds.clear();
    await user.click(screen.getByRole('button', { name: 'Convert (1)' }));
    await waitFor(() => expect(rowOf('Garden tour')).toHaveAttribute('data-status', 'completed'));
    expect(backend.batches[1].transcripts.map((transcript) => transcript.id)).toEqual(['f2']);
  });

  it('shows Converting on the rows while their batch is out', async () => {
    conversionBackend();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post('/api/convert/markdown/batch', async () => {
        await gate;
        return HttpResponse.json<Schema<'Envelope_MarkdownBatchView'>>({ data: { results: [], failed: [], unknownPlaceholders: [] } });
      }),
    );
    handOver();
    const { user } = await renderConvert();
    await user.click(screen.getByRole('button', { name: 'Convert (2)' }));
    await waitFor(() => expect(rowOf('Welcome talk')).toHaveAttribute('data-status', 'converting'));
    expect(within(rowOf('Welcome talk')).getByText('Converting')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Converting...' })).toBeDisabled();
    release();
    // An answer that names neither result nor failure is an error for the row, not a silent pass.
    await waitFor(() => expect(rowOf('Welcome talk')).toHaveAttribute('data-status', 'error'));
  });

  it("'Failed to convert transcripts' (or the server message) when the call fails", async () => {
    const backend = conversionBackend();
    backend.batchFailure = { status: 500 };
    handOver();
    const { user } = await renderConvert();
    await user.click(screen.getByRole('button', { name: 'Convert (2)' }));
    await waitFor(() => expect(hasToast('Failed to convert transcripts')).toBe(true));
    expect(rowOf('Welcome talk')).toHaveAttribute('data-status', 'error');
    backend.batchFailure = { status: 400, message: 'template must be at most 64 KB' };
    await user.click(screen.getByRole('button', { name: 'Convert (2)' }));
    await waitFor(() => expect(hasToast('template must be at most 64 KB')).toBe(true));
  });
});

describe('/convert-pdf: preview and download', () => {
  it('previews a converted row as sanitised markdown and downloads it as a .md file', async () => {
    conversionBackend();
    handOver();
    const createObjectURL = vi.fn(() => 'blob:markdown');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const { user } = await renderConvert();
    await user.click(screen.getByRole('button', { name: 'Convert (2)' }));
    await waitFor(() => expect(rowOf('Welcome talk')).toHaveAttribute('data-status', 'completed'));
    await user.click(within(rowOf('Welcome talk')).getByRole('button', { name: 'Preview Welcome talk' }));
    const preview = await screen.findByTestId('markdown-preview');
    expect(within(preview).getByRole('heading', { level: 1, name: 'Welcome talk' })).toBeInTheDocument();
    expect(within(preview).getByText('f1', { selector: 'strong' })).toBeInTheDocument();
    expect(preview.querySelector('script')).toBeNull();
    await user.click(within(preview).getByRole('button', { name: 'Close preview' }));
    await user.click(within(rowOf('Garden tour')).getByRole('button', { name: 'Download Garden tour as markdown' }));
    expect(clicked).toEqual(['Garden tour.md']);
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    // jsdom's Blob has no text(): read it the old way.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(blob);
    });
    expect(text).toContain('# Garden tour');
    expect(blob.type).toBe('text/markdown;charset=utf-8');
  });

  it("says 'No converted files to save' before anything is converted", async () => {
    const backend = conversionBackend();
    handOver();
    const { user } = await renderConvert();
    await user.click(screen.getByRole('button', { name: 'Save to Vault' }));
    await waitFor(() => expect(hasToast('No converted files to save')).toBe(true));
    expect(backend.saves).toEqual([]);
  });
});

describe('/convert-pdf: saving to the Vault and templates', () => {
  it('saves the completed rows to the Vault with their markdownPath and links to the Vault', async () => {
    const backend = conversionBackend();
    backend.failIds.add('f2');
    handOver();
    const { user, router } = await renderConvert();
    await user.click(screen.getByRole('button', { name: 'Convert (2)' }));
    await waitFor(() => expect(rowOf('Welcome talk')).toHaveAttribute('data-status', 'completed'));
    await user.click(screen.getByRole('button', { name: 'Save to Vault' }));
    await waitFor(() => expect(hasToast('Saved to Vault')).toBe(true));
    expect(backend.saves).toEqual([
      {
        files: [
          {
            title: 'Welcome talk',
            content: '# Welcome talk\n\nParagraph of **f1**.\n\n<script>alert(1)</script>',
            path: 'converted/transcripts/f1.md',
          },
        ],
      },
    ]);
    expect(within(rowOf('Welcome talk')).getByText('Saved to the Vault')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Open the Vault' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vault'));
  });

  it("'Failed to save to vault' (or the server message) when the save fails", async () => {
    const backend = conversionBackend();
    backend.saveFailure = { status: 502 };
    handOver();
    const { user } = await renderConvert();
    await user.click(screen.getByRole('button', { name: 'Convert (2)' }));
    await waitFor(() => expect(rowOf('Garden tour')).toHaveAttribute('data-status', 'completed'));
    await user.click(screen.getByRole('button', { name: 'Save to Vault' }));
    await waitFor(() => expect(hasToast('Failed to save to vault')).toBe(true));
  });

  it('picks a saved template into the editor and saves a new one by name', async () => {
    const backend = conversionBackend({
      templates: [{ id: 'tpl-a', name: 'Study notes', body: '## {{title}}\n\n{{content}}', createdAt: '', updatedAt: '' }],
    });
    handOver();
    const { user } = await renderConvert();
    await screen.findByRole('option', { name: 'Study notes' });
    await user.selectOptions(screen.getByLabelText('Saved templates'), 'Study notes');
    expect(screen.getByLabelText('Custom template')).toHaveValue('## {{title}}\n\n{{content}}');
    await user.clear(screen.getByLabelText('Custom template'));
    await user.type(screen.getByLabelText('Custom template'), 'New {{{{title}}');
    await user.click(screen.getByRole('button', { name: 'Save as template' }));
    await user.type(screen.getByLabelText('Template name'), 'Short');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(backend.createdTemplates).toEqual([{ name: 'Short', body: 'New {{title}}' }]));
    await waitFor(() => expect(screen.getByLabelText('Saved templates')).toHaveDisplayValue('Short'));
  });
});

describe('conversion rules', () => {
  it('reads only finished hand-off entries, once each', () => {
    handOver([...HANDED_OVER, HANDED_OVER[0], { id: 'bad' }, 'junk']);
    expect(readHandedOverTranscripts().map((item) => item.id)).toEqual(['f1', 'f2']);
  });

  it('converts pending and failed rows, or every row again once all are done', () => {
    const items = [newConversionItem({ id: 'a', title: 'A', transcriptPath: 'a' }), newConversionItem({ id: 'b', title: 'B', transcriptPath: 'b' })];
    expect(rowsToConvert(items)).toHaveLength(2);
    const done = items.map((item) => ({ ...item, status: 'completed' as const }));
    expect(rowsToConvert(done)).toHaveLength(2);
    expect(rowsToConvert([done[0], { ...items[1], status: 'error' as const }]).map((item) => item.id)).toEqual(['b']);
  });

  it('finds unknown placeholders', () => {
    expect(unknownPlaceholdersIn('{{title}} {{ author }} {{content}} {{author}} {{x}}')).toEqual(['author', 'x']);
  });
});
