import { errorMessage } from '@/api/errors';
import { SETTINGS_ERRORS, userSettingsApi } from '@/api/userSettingsApi';
import type { AppStartListening } from '@/app/store';
import { errorToast } from '@/lib/toast';
import { schedulesApi } from './schedulesApi';

/** The fallbacks of docs/product-spec.md §8, after the server's error.message. */
export const SCHEDULE_ERRORS = {
  fetch: 'Failed to fetch schedules',
  create: 'Failed to create schedule',
  update: 'Failed to update schedule',
  toggle: 'Failed to toggle schedule',
  delete: 'Failed to delete schedule',
  sync: 'Failed to sync schedule',
} as const;

/**
 * A failed fetch of the schedules or of the user's settings shows a destructive toast titled
 * Error (docs/product-spec.md §8); the store keeps nothing of it, so it is shown once and cleared. Without their
 * settings the app goes on with the defaults.
 */
export function registerSettingsListeners(startListening: AppStartListening): void {
  startListening({
    matcher: schedulesApi.endpoints.getSchedules.matchRejected,
    effect: (action, api) => {
      // RTK Query also rejects a fetch it skipped (one already running): that is no failure.
      if (action.meta.condition) return;
      api.dispatch(errorToast(errorMessage(action.payload, SCHEDULE_ERRORS.fetch)));
    },
  });
  startListening({
    matcher: userSettingsApi.endpoints.getUserSettings.matchRejected,
    effect: (action, api) => {
      if (action.meta.condition) return;
      api.dispatch(errorToast(errorMessage(action.payload, SETTINGS_ERRORS.fetch)));
    },
  });
}
