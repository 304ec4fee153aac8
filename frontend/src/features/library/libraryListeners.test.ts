import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';
import { realtimeEventReceived } from '@/api/realtimeSlice';
import { setupStore } from '@/app/store';
import { server } from '@/testing/server';
import { libraryApi } from './libraryApi';

const toasts = (store: ReturnType<typeof setupStore>) =>
  store.getState().toast.items.map(({ title, description, variant }) => ({ title, description, variant }));

describe('library realtime listeners', () => {
  it('libraryUpdate created: toasts New Transcript and invalidates transcripts and stats', () => {
    const invalidate = vi.spyOn(baseApi.util, 'invalidateTags');
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ type: 'libraryUpdate', data: { type: 'created', transcript: { id: 'i12', title: 'Episode 12' } } }));
    expect(invalidate).toHaveBeenCalledWith(['Transcript', 'LibraryStats', 'LibraryTag']);
    expect(toasts(store)).toEqual([
      { title: 'New Transcript', description: 'Episode 12 has been processed and added to your library', variant: 'success' },
    ]);
  });

  it('libraryUpdate created without a title says "A transcript"', () => {
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ type: 'libraryUpdate', data: { type: 'created' } as never }));
    expect(toasts(store)).toEqual([
      { title: 'New Transcript', description: 'A transcript has been processed and added to your library', variant: 'success' },
    ]);
  });

  it('libraryUpdate of another type (or with no body) refreshes without a toast', () => {
    const invalidate = vi.spyOn(baseApi.util, 'invalidateTags');
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ type: 'libraryUpdate', data: { type: 'updated', transcript: { id: 'i1', title: 'x' } } }));
    store.dispatch(realtimeEventReceived({ type: 'libraryUpdate', data: { type: 'deleted', transcript: { id: 'i1', title: 'x' } } }));
    store.dispatch(realtimeEventReceived({ type: 'libraryUpdate', data: null as never }));
    expect(invalidate).toHaveBeenCalledTimes(3);
    expect(invalidate).toHaveBeenCalledWith(['Transcript', 'LibraryStats', 'LibraryTag']);
    expect(toasts(store)).toEqual([]);
  });

  it('libraryUpdate refetches a cached transcript', async () => {
    let fetches = 0;
    server.use(
      http.get('/api/library/transcripts/:id/content', () => {
        fetches += 1;
        return HttpResponse.json<Schema<'Envelope_ContentView'>>({ data: { content: `version ${fetches}` } });
      }),
    );
    const store = setupStore();
    const subscription = store.dispatch(libraryApi.endpoints.getTranscriptContent.initiate('t-1'));
    await subscription;
    expect(fetches).toBe(1);
    store.dispatch(realtimeEventReceived({ type: 'libraryUpdate', data: { type: 'updated', transcript: { id: 't-1', title: 'x' } } }));
    await vi.waitFor(() => expect(fetches).toBe(2));
    await vi.waitFor(() =>
      expect(libraryApi.endpoints.getTranscriptContent.select('t-1')(store.getState()).data).toBe('version 2'),
    );
    subscription.unsubscribe();
  });

  it('statsUpdate invalidates the library stats only, without a toast', () => {
    const invalidate = vi.spyOn(baseApi.util, 'invalidateTags');
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ type: 'statsUpdate', data: {} as never }));
    expect(invalidate).toHaveBeenCalledExactlyOnceWith(['LibraryStats']);
    expect(toasts(store)).toEqual([]);
  });

  it('ignores events of other features', () => {
    const invalidate = vi.spyOn(baseApi.util, 'invalidateTags');
    const store = setupStore();
    store.dispatch(realtimeEventReceived({ type: 'downloadProgress', data: { jobId: 'j', status: 'PROCESSING', processedVideos: 0, totalVideos: 1 } }));
    expect(invalidate).not.toHaveBeenCalled();
    expect(toasts(store)).toEqual([]);
  });
});
