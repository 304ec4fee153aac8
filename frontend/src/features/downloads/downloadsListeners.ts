import { DOWNLOAD_ERRORS, withProgressEvent } from '@/api/downloadJobs';
import { downloadsApi } from '@/api/downloadsApi';
import { errorMessage } from '@/api/errors';
import { isRealtimeEvent, socketReconnected } from '@/api/realtimeSlice';
import type { AppStartListening } from '@/app/store';
import { errorToast } from '@/lib/toast';

/**
 * The downloads feature's reactions: `downloadProgress` events patch the cached job list (docs/product-spec.md §4),
 * a job the list does not know yet (started in another tab) or a socket that comes back after an
 * outage refetches it, and a failed fetch of the list is toasted (docs/product-spec.md §8).
 */
export function registerDownloadsListeners(startListening: AppStartListening): void {
  startListening({
    predicate: isRealtimeEvent.downloadProgress,
    effect: ({ payload: { data: event } }, api) => {
      const cached = downloadsApi.endpoints.getDownloadJobs.select()(api.getState()).data;
      if (!cached) return;
      const { jobs, found } = withProgressEvent(cached, event);
      if (found) api.dispatch(downloadsApi.util.updateQueryData('getDownloadJobs', undefined, () => jobs));
      else if (event?.jobId) api.dispatch(downloadsApi.util.invalidateTags(['DownloadJob']));
    },
  });
  startListening({
    actionCreator: socketReconnected,
    effect: (_action, api) => {
      api.dispatch(downloadsApi.util.invalidateTags(['DownloadJob']));
    },
  });
  startListening({
    matcher: downloadsApi.endpoints.getDownloadJobs.matchRejected,
    effect: (action, api) => {
      // RTK Query also rejects a fetch it skipped (one already running): that is no failure.
      if (action.meta.condition) return;
      api.dispatch(errorToast(errorMessage(action.payload, DOWNLOAD_ERRORS.fetch)));
    },
  });
}
