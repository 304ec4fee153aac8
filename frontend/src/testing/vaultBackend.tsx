/**
 * The Vault's test kit: an in-memory library backend (MSW, typed by the contract) and the
 * helpers the list and detail tests share.
 */
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { vi } from 'vitest';
import type { AppStore } from '@/app/store';
import type { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { errorResponse, server } from '@/testing/server';
import type { LibraryStats, LibraryTranscript, Suggestions } from '@/features/library/libraryApi';

export function transcript(id: string, title: string, extra: Partial<LibraryTranscript> = {}): LibraryTranscript {
  return {
    id,
    title,
    author: 'Scribevault',
    createdAt: '2024-01-05T10:00:00Z',
    lastExported: null,
    isStarred: false,
    gwthLevel: null,
    sourceType: 'AUDIO',
    rating: null,
    tags: ['talk'],
    duration: 65,
    sectionId: null,
    fileName: `transcripts/${id}.txt`,
    sourceUrl: null,
    needsReview: false,
    ...extra,
  };
}

export const STATS: LibraryStats = {
  totalTranscripts: 12,
  totalDuration: 3725,
  storageUsed: 2048,
  avgRating: 3.5,
  thisMonth: 4,
  export: { totalExported: 3, topRatedCount: 2, byGwthLevel: {}, bySourceType: {} },
  distributions: { rating: {}, gwthLevel: {}, sourceType: {} },
};

export type FailKey =
  | 'list'
  | 'item'
  | 'content'
  | 'suggestions'
  | 'metadata'
  | 'updateContent'
  | 'export'
  | 'bulk'
  | 'process'
  | 'delete'
  | 'stats';

export interface Hit {
  highlights: string[];
  matches?: Array<{ start: number; end: number; text: string }>;
}

function vaultState(initial: LibraryTranscript[], options: VaultOptions) {
  return {
    items: initial.map((entry) => ({ ...entry })),
    contents: { ...(options.contents ?? {}) } as Record<string, string>,
    hits: options.hits ?? ({}),
    lists: [] as URLSearchParams[],
    calls: [] as Array<{ method: string; path: string; body?: unknown }>,
    fail: {} as Partial<Record<FailKey, { status: number; message?: string }>>,
    suggestions: {} as Record<string, Suggestions>,
    statsCalls: 0,
  };
}

interface VaultOptions {
  contents?: Record<string, string>;
  hits?: Record<string, Hit>;
}

type VaultState = ReturnType<typeof vaultState>;

/** The state with the small helpers every handler group uses. */
function vaultKit(state: VaultState) {
  const failure = (key: FailKey) => {
    const fail = state.fail[key];
    if (!fail) return null;
    return fail.message
      ? errorResponse(fail.status, fail.message)
      : new HttpResponse(null, { status: fail.status });
  };
  const find = (id: unknown) => state.items.find((candidate) => candidate.id === id);
  const notFound = () => errorResponse(404, 'Transcript not found', 'NOT_FOUND');
  const record = (method: string, path: string, body?: unknown) => state.calls.push({ method, path, body });
  return { state, failure, find, notFound, record };
}

type VaultKit = ReturnType<typeof vaultKit>;

/** Whether an item passes the list's query parameters (q, tags, sourceType, rating, isStarred, createdAfter, path, needsReview). */
function matchesList(entry: LibraryTranscript, params: URLSearchParams, contents: Record<string, string>) {
  const q = params.get('q');
  const tags = params.getAll('tags');
  const types = params.getAll('sourceType');
  const ratings = params.getAll('rating').map(Number);
  const starred = params.get('isStarred');
  const after = params.get('createdAfter');
  const path = params.get('path');
  const needsReview = params.get('needsReview');
  return (
    (!q || `${entry.title} ${contents[entry.id] ?? ''}`.toLowerCase().includes(q.toLowerCase())) &&
    tags.every((tag) => entry.tags.includes(tag)) &&
    (types.length === 0 || types.includes(entry.sourceType ?? '')) &&
    (ratings.length === 0 || ratings.includes(entry.rating ?? 0)) &&
    (starred === null || String(entry.isStarred) === starred) &&
    (!after || entry.createdAt >= after) &&
    (!path || entry.fileName === path) &&
    (needsReview === null || String(entry.needsReview) === needsReview)
  );
}

/** GET /library/transcripts: filters, pages (20 a page) and records every request. */
function listHandler({ state, failure }: VaultKit) {
  return http.get('/api/library/transcripts', ({ request }) => {
    const params = new URL(request.url).searchParams;
    state.lists.push(params);
    const failed = failure('list');
    if (failed) return failed;
    const page = Number(params.get('page') ?? 1);
    const limit = Number(params.get('limit') ?? 20);
    const q = params.get('q');
    const matching = state.items.filter((entry) => matchesList(entry, params, state.contents));
    const data = matching.slice((page - 1) * limit, page * limit).map((entry) => (q && state.hits[entry.id] ? { ...entry, ...state.hits[entry.id] } : entry));
    return HttpResponse.json<Schema<'TranscriptPage'>>({ data, meta: { page, limit, total: matching.length, hasMore: page * limit < matching.length } });
  });
}

/** One item's reads: the item, its content and its suggestions. */
function itemReadHandlers({ state, failure, find, notFound }: VaultKit) {
  return [
    http.get('/api/library/transcripts/:id', ({ params }) => failure('item') ?? (find(params.id) ? HttpResponse.json<Schema<'Envelope_TranscriptView'>>({ data: find(params.id)! }) : notFound())),
    http.get('/api/library/transcripts/:id/content', ({ params }) =>
      failure('content') ?? (find(params.id) ? HttpResponse.json<Schema<'Envelope_ContentView'>>({ data: { content: state.contents[params.id as string] ?? '' } }) : notFound()),
    ),
    http.get('/api/library/transcripts/:id/suggestions', ({ params }) =>
      failure('suggestions') ?? HttpResponse.json<Schema<'Envelope_SuggestionsView'>>({ data: state.suggestions[params.id as string] ?? { suggestedTags: [], suggestedRating: 3 } }),
    ),
  ];
}

/** One item's writes: metadata, content and delete. */
function itemWriteHandlers({ state, failure, find, notFound, record }: VaultKit) {
  return [
    http.put('/api/library/transcripts/:id/metadata', async ({ params, request }) => {
      const body = (await request.json()) as Partial<LibraryTranscript>;
      record('PUT', `metadata/${params.id as string}`, body);
      const failed = failure('metadata');
      if (failed) return failed;
      const entry = find(params.id);
      if (!entry) return notFound();
      Object.assign(entry, body);
      return HttpResponse.json<Schema<'Envelope_TranscriptView'>>({ data: entry });
    }),
    http.put('/api/library/transcripts/:id/content', async ({ params, request }) => {
      const body = (await request.json()) as { content: string };
      record('PUT', `content/${params.id as string}`, body);
      const failed = failure('updateContent');
      if (failed) return failed;
      state.contents[params.id as string] = body.content;
      return HttpResponse.json<Schema<'Envelope_TranscriptView'>>({ data: find(params.id)! });
    }),
    http.delete('/api/library/transcripts/:id', ({ params }) => {
      record('DELETE', `item/${params.id as string}`);
      const failed = failure('delete');
      if (failed) return failed;
      state.items = state.items.filter((candidate) => candidate.id !== params.id);
      return HttpResponse.json<Schema<'Envelope_DeletedView'>>({ data: { id: params.id as string, deleted: true } });
    }),
  ];
}

/** Exports (one item, bulk) and the processing batch. */
function exportHandlers({ failure, find, notFound, record }: VaultKit) {
  return [
    http.post('/api/library/transcripts/:id/export', async ({ params, request }) => {
      const body = (await request.json()) as { format: string };
      record('POST', `export/${params.id as string}`, body);
      const failed = failure('export');
      if (failed) return failed;
      const entry = find(params.id);
      if (!entry) return notFound();
      entry.lastExported = '2024-02-01T12:00:00Z';
      return HttpResponse.json<Schema<'Envelope_ExportLinkView'>>({ data: { downloadUrl: `/api/library/downloads/one-${entry.id}`, filename: `${entry.title}.${body.format}` } });
    }),
    http.post('/api/library/export/bulk', async ({ request }) => {
      const body = (await request.json()) as { ids: string[]; format: string };
      record('POST', 'bulk', body);
      const failed = failure('bulk');
      if (failed) return failed;
      for (const entryId of body.ids) {
        const entry = find(entryId);
        if (entry) entry.lastExported = '2024-02-01T12:00:00Z';
      }
      return HttpResponse.json<Schema<'Envelope_ExportLinkView'>>({ data: { downloadUrl: '/api/library/downloads/bulk-token', filename: 'vault-export.zip' } });
    }),
    http.post('/api/library/process/batch', ({ request }) => {
      record('POST', `process?${new URL(request.url).searchParams.toString()}`);
      return failure('process') ?? HttpResponse.json<Schema<'Envelope_BatchView'>>({ data: { processed: 3, remaining: 0 } });
    }),
  ];
}

/** The library-wide reads and the tag seeding: stats, tags and syllabus sections. */
function libraryHandlers({ state, failure }: VaultKit) {
  return [
    http.post('/api/library/system/init-tags', () => HttpResponse.json<Schema<'Envelope_CreatedTagsView'>>({ data: { created: 5 } })),
    http.get('/api/library/stats', () => {
      state.statsCalls += 1;
      return failure('stats') ?? HttpResponse.json<Schema<'Envelope_LibraryStats'>>({ data: STATS });
    }),
    http.get('/api/library/tags', () =>
      HttpResponse.json<Schema<'Envelope_Vec_TagView'>>({
        data: [
          { id: 'tag-1', name: 'soil', count: 1 },
          { id: 'tag-2', name: 'talk', count: 3 },
        ],
      }),
    ),
    http.get('/api/library/syllabus-sections', () =>
      HttpResponse.json<Schema<'Envelope_Vec_SectionView'>>({ data: [{ id: 'sec-1', title: 'Gardening basics', description: '', position: 0, itemCount: 0 }] }),
    ),
  ];
}

/**
 * An in-memory Vault speaking docs/vault-api.md: it filters, pages (20 a page), records every
 * request, and fails a call on demand (`fail.<call> = {status, message?}`).
 */
export function vaultBackend(initial: LibraryTranscript[], options: VaultOptions = {}) {
  const kit = vaultKit(vaultState(initial, options));
  server.use(listHandler(kit), ...itemReadHandlers(kit), ...itemWriteHandlers(kit), ...exportHandlers(kit), ...libraryHandlers(kit));
  return kit.state;
}

export const toasts = (store: AppStore) => store.getState().toast.items.map(({ title, description }) => ({ title, description }));
export const cards = () => screen.queryAllByTestId('vault-item');
export const cardTitles = () => cards().map((card) => within(card).getByRole('heading').textContent);
export const cardOf = (title: string) => {
  const found = cards().find((card) => within(card).getByRole('heading').textContent === title);
  if (!found) throw new Error(`no card ${title}`);
  return found;
};
export const lastList = (backend: ReturnType<typeof vaultBackend>) => backend.lists.at(-1)!;

/** Records the `<a href download>` clicks that start browser downloads. */
export function captureDownloads() {
  const downloads: Array<{ href: string; download: string }> = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
  return downloads;
}

export async function openDetail(user: ReturnType<typeof renderWithProviders>['user'], title: string) {
  await user.click(await screen.findByRole('button', { name: title }));
  return screen.findByRole('dialog', { name: title });
}
