import { baseApi } from '@/api/baseApi';
import { isRealtimeEvent } from '@/api/realtimeSlice';
import type { AppStartListening } from '@/app/store';
import { writeJson } from '@/lib/storage';
import { showToast } from '@/lib/toast';
import { SEARCH_HISTORY_STORAGE_KEY } from './searchHistory';

/**
 * Discovery's reactions: its sources changed on the server (realtime `sourceUpdate`), and the
 * search history changed (it is kept in localStorage).
 */
export function registerDiscoveryListeners(startListening: AppStartListening): void {
  startListening({
    predicate: isRealtimeEvent.sourceUpdate,
    effect: ({ payload: { data: event } }, api) => {
      api.dispatch(baseApi.util.invalidateTags(['Source']));
      const title = event?.source?.title ?? '';
      if (event?.type === 'created') api.dispatch(showToast({ title: 'Source Added', description: title }));
      else if (event?.type === 'deleted') api.dispatch(showToast({ title: 'Source Removed', description: title }));
    },
  });
  startListening({
    predicate: (_action, current, previous) => current.discovery.history !== previous.discovery.history,
    effect: (_action, api) => writeJson('local', SEARCH_HISTORY_STORAGE_KEY, api.getState().discovery.history),
  });
}
