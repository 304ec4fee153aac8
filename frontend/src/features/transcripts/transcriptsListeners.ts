import { queueApi } from '@/api/queueApi';
import { isRealtimeEvent, socketReconnected } from '@/api/realtimeSlice';
import type { AppStartListening } from '@/app/store';
import { HANDOFF_KEYS, writeJson } from '@/lib/storage';
import { showToast } from '@/lib/toast';
import { SETTINGS_STORAGE_KEY } from './transcriptsSlice';

export const ALL_COMPLETED_MESSAGE = 'All transcriptions completed!';

/**
 * Persists the file list (sessionStorage `transcripts`, which the convert screen also reads) and
 * the settings (localStorage), announces the end of a run, and keeps the cached queue (positions
 * and estimates, which the Vault's processing items read too) as the socket's `queueUpdate`
 * events say, asking again after a socket outage.
 */
export function registerTranscriptsListeners(startListening: AppStartListening): void {
  startListening({
    predicate: (_action, current, previous) => current.transcripts.files !== previous.transcripts.files,
    effect: (_action, api) => writeJson('session', HANDOFF_KEYS.transcripts, api.getState().transcripts.files),
  });
  startListening({
    predicate: (_action, current, previous) => current.transcripts.settings !== previous.transcripts.settings,
    effect: (_action, api) => writeJson('local', SETTINGS_STORAGE_KEY, api.getState().transcripts.settings),
  });
  startListening({
    predicate: isRealtimeEvent.queueUpdate,
    effect: ({ payload: { data: queue } }, api) => {
      if (queue) void api.dispatch(queueApi.util.upsertQueryData('getTranscriptionQueue', undefined, queue));
    },
  });
  startListening({
    actionCreator: socketReconnected,
    effect: (_action, api) => {
      api.dispatch(queueApi.util.invalidateTags(['TranscriptionQueue']));
    },
  });
  startListening({
    predicate: (_action, current, previous) => current.transcripts.completedRuns > previous.transcripts.completedRuns,
    effect: (_action, api) => {
      api.dispatch(showToast({ title: 'Done', description: ALL_COMPLETED_MESSAGE, variant: 'success' }));
    },
  });
}
