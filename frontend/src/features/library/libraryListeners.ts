import { baseApi } from '@/api/baseApi';
import { isRealtimeEvent } from '@/api/realtimeSlice';
import type { AppStartListening } from '@/app/store';
import { showToast } from '@/lib/toast';

interface LibraryUpdateEvent {
  type?: string;
  transcript?: { title?: string };
}

/** The library's realtime reactions: refresh the Vault and its stats, announce new transcripts. */
export function registerLibraryListeners(startListening: AppStartListening): void {
  startListening({
    predicate: isRealtimeEvent<LibraryUpdateEvent>('libraryUpdate'),
    effect: ({ payload: { data: event } }, api) => {
      api.dispatch(baseApi.util.invalidateTags(['Transcript', 'LibraryStats']));
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
  startListening({
    predicate: isRealtimeEvent('statsUpdate'),
    effect: (_action, api) => {
      api.dispatch(baseApi.util.invalidateTags(['LibraryStats']));
    },
  });
}
