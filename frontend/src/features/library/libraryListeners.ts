import { baseApi } from '@/api/baseApi';
import { isRealtimeEvent } from '@/api/realtimeSlice';
import type { AppStartListening } from '@/app/store';
import { showToast } from '@/lib/toast';
import { whisperApi, type WhisperFile } from './whisperApi';

/** Patches the file of a Whisper run the Vault shows, when the socket reports on it. */
function patchWhisperFile(jobId: string, fileId: string, patch: (file: WhisperFile) => void) {
  return whisperApi.util.updateQueryData('getWhisperJob', jobId, (job) => {
    const file = job.files.find((candidate) => candidate.id === fileId);
    if (file) patch(file);
  });
}

/**
 * The library's realtime reactions: any libraryUpdate (created, updated, deleted) refreshes the
 * Vault's cached lists, items, contents and suggestions (the bare 'Transcript' tag covers every
 * id), its stats and tag counts; only `created` is announced (docs/product-spec.md §7). A Whisper run started
 * from an item follows its file's transcription events.
 */
export function registerLibraryListeners(startListening: AppStartListening): void {
  startListening({
    predicate: isRealtimeEvent.libraryUpdate,
    effect: ({ payload: { data: event } }, api) => {
      api.dispatch(baseApi.util.invalidateTags(['Transcript', 'LibraryStats', 'LibraryTag']));
      if (event?.type !== 'created') return;
      const title = event.transcript?.title ?? 'A transcript';
      api.dispatch(
        showToast({
          title: 'New Transcript',
          description: `${title} has been processed and added to your library`,
          variant: 'success',
        }),
      );
    },
  });
  // A Whisper run started from an item ('Transcribe with Whisper') follows the socket, not a timer.
  startListening({
    predicate: isRealtimeEvent.transcriptionProgress,
    effect: ({ payload: { data: event } }, api) => {
      api.dispatch(
        patchWhisperFile(event.jobId, event.fileId, (file) => {
          file.progress = event.progress;
          if (event.status) file.status = event.status;
        }),
      );
    },
  });
  startListening({
    predicate: isRealtimeEvent.transcriptionComplete,
    effect: ({ payload: { data: event } }, api) => {
      api.dispatch(
        patchWhisperFile(event.jobId, event.fileId, (file) => {
          file.status = 'completed';
          file.progress = 100;
        }),
      );
    },
  });
  startListening({
    predicate: isRealtimeEvent.transcriptionError,
    effect: ({ payload: { data: event } }, api) => {
      api.dispatch(
        patchWhisperFile(event.jobId, event.fileId, (file) => {
          file.status = event.status;
          file.errorMessage = event.errorMessage ?? event.error ?? file.errorMessage;
        }),
      );
    },
  });
  startListening({
    predicate: isRealtimeEvent.statsUpdate,
    effect: (_action, api) => {
      api.dispatch(baseApi.util.invalidateTags(['LibraryStats']));
    },
  });
}
