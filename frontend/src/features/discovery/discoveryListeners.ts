import { baseApi } from '@/api/baseApi';
import { isRealtimeEvent } from '@/api/realtimeSlice';
import type { AppStartListening } from '@/app/store';
import { showToast } from '@/lib/toast';

interface SourceUpdateEvent {
  type?: string;
  source?: { title?: string };
}

/** Discovery's realtime reactions: its sources (channels) changed on the server. */
export function registerDiscoveryListeners(startListening: AppStartListening): void {
  startListening({
    predicate: isRealtimeEvent<SourceUpdateEvent>('sourceUpdate'),
    effect: ({ payload: { data: event } }, api) => {
      api.dispatch(baseApi.util.invalidateTags(['Source']));
      const title = event?.source?.title ?? '';
      if (event?.type === 'created') api.dispatch(showToast({ title: 'Source Added', description: title }));
      else if (event?.type === 'deleted') api.dispatch(showToast({ title: 'Source Removed', description: title }));
    },
  });
}
