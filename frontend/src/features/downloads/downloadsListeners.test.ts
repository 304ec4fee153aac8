import { describe, expect, it, vi } from 'vitest';
import { baseApi } from '@/api/baseApi';
import { realtimeEventReceived, socketReconnected } from '@/api/realtimeSlice';
import { setupStore } from '@/app/store';

describe('downloads realtime listeners', () => {
  it('ignores progress events while no job list is cached (the next fetch brings the server state)', () => {
    const invalidate = vi.spyOn(baseApi.util, 'invalidateTags');
    const store = setupStore();
    const before = store.getState().api;
    store.dispatch(realtimeEventReceived({ type: 'downloadProgress', data: { jobId: 'job-1', status: 'PROCESSING', processedVideos: 0, totalVideos: 1 } }));
    expect(store.getState().api.queries).toEqual(before.queries);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('asks for the job list again when the socket comes back after an outage (events may have been missed)', () => {
    const invalidate = vi.spyOn(baseApi.util, 'invalidateTags');
    const store = setupStore();
    store.dispatch(socketReconnected());
    expect(invalidate).toHaveBeenCalledWith(['DownloadJob']);
  });
});
