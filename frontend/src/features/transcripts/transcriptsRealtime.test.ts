import { describe, expect, it } from 'vitest';
import { realtimeEventReceived } from '@/api/realtimeSlice';
import { setupStore } from '@/app/store';
import { filesAdded, jobStarted } from './transcriptsSlice';

function storeWithOneFile() {
  const store = setupStore();
  store.dispatch(filesAdded([{ id: 'f-1', title: 'Intro', mp3Path: 'uploads/intro.mp3' }]));
  store.dispatch(jobStarted({ jobId: 'job-1', fileIds: ['f-1'] }));
  return store;
}
const fileOf = (store: ReturnType<typeof setupStore>) => store.getState().transcripts.files[0];

describe('transcription events of the realtime socket', () => {
  it('progress, then complete, update the file and announce the end of the run', () => {
    const store = storeWithOneFile();
    store.dispatch(realtimeEventReceived({ type: 'transcriptionProgress', data: { fileId: 'f-1', jobId: 'job-1', progress: 42 } }));
    expect(fileOf(store)).toMatchObject({ status: 'transcribing', progress: 42 });
    store.dispatch(
      realtimeEventReceived({ type: 'transcriptionComplete', data: { fileId: 'f-1', jobId: 'job-1', transcriptPath: 'out/intro.txt', markdownPath: 'out/intro.md', processingTime: 1200 } }),
    );
    expect(fileOf(store)).toMatchObject({ status: 'completed', progress: 100, markdownPath: 'out/intro.md' });
    expect(store.getState().toast.items.map((toast) => toast.description)).toContain('All transcriptions completed!');
  });

  it('an error event marks the file failed with the server message', () => {
    const store = storeWithOneFile();
    store.dispatch(
      realtimeEventReceived({ type: 'transcriptionError', data: { fileId: 'f-1', jobId: 'job-1', errorMessage: 'whisper crashed', status: 'error', retryCount: 2, maxRetries: 10 } }),
    );
    expect(fileOf(store)).toMatchObject({ status: 'error', errorMessage: 'whisper crashed', retryCount: 2, progress: 0 });
  });

  it('ignores events without a body and events of other features', () => {
    const store = storeWithOneFile();
    const before = store.getState().transcripts;
    store.dispatch(realtimeEventReceived({ type: 'transcriptionProgress', data: null as never }));
    store.dispatch(realtimeEventReceived({ type: 'downloadProgress', data: { fileId: 'f-1', progress: 99 } as never }));
    expect(store.getState().transcripts).toBe(before);
  });
});
