import { baseApi } from '@/api/baseApi';
import { isRealtimeEvent } from '@/api/realtimeSlice';
import type { AppStartListening } from '@/app/store';
import { showToast } from '@/lib/toast';

/**
 * The library's realtime reactions: any libraryUpdate (created, updated, deleted) refreshes the
 * Vault's cached lists, items, contents and suggestions (the bare 'Transcript' tag covers every
 * id), its stats and tag counts; only `created` is announced (spec §7).
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
  startListening({
    predicate: isRealtimeEvent.statsUpdate,
    effect: (_action, api) => {
      api.dispatch(baseApi.util.invalidateTags(['LibraryStats']));
    },
  });
}
