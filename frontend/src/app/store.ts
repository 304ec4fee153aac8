import {
  combineReducers,
  configureStore,
  createListenerMiddleware,
  type Action,
  type ThunkAction,
  type TypedStartListening,
} from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { baseApi } from '@/api/baseApi';
import { realtimeReducer } from '@/api/realtimeSlice';
import { registerAuthListeners } from '@/features/auth/authListeners';
import { authReducer } from '@/features/auth/authSlice';
import { registerDiscoveryListeners } from '@/features/discovery/discoveryListeners';
import { discoveryReducer } from '@/features/discovery/discoverySlice';
import { registerDownloadsListeners } from '@/features/downloads/downloadsListeners';
import { registerLibraryListeners } from '@/features/library/libraryListeners';
import { registerRealtimeListeners } from '@/features/realtime/realtimeListeners';
import { registerSettingsListeners } from '@/features/settings/settingsListeners';
import { registerTranscriptsListeners } from '@/features/transcripts/transcriptsListeners';
import { transcriptsReducer } from '@/features/transcripts/transcriptsSlice';
import { toastReducer } from '@/lib/toast';

const rootReducer = combineReducers({
  [baseApi.reducerPath]: baseApi.reducer,
  auth: authReducer,
  discovery: discoveryReducer,
  realtime: realtimeReducer,
  toast: toastReducer,
  transcripts: transcriptsReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** Builds a fresh store; tests make one per test with the state they need. */
export function setupStore(preloadedState?: Partial<RootState>) {
  const listenerMiddleware = createListenerMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().prepend(listenerMiddleware.middleware).concat(baseApi.middleware),
  });
  const startListening = listenerMiddleware.startListening as AppStartListening;
  registerAuthListeners(startListening);
  registerTranscriptsListeners(startListening);
  registerRealtimeListeners(startListening);
  registerLibraryListeners(startListening);
  registerDiscoveryListeners(startListening);
  registerDownloadsListeners(startListening);
  registerSettingsListeners(startListening);
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof setupStore>;
export type AppDispatch = AppStore['dispatch'];
export type AppStartListening = TypedStartListening<RootState, AppDispatch>;
export type AppThunk<ReturnType = void> = ThunkAction<ReturnType, RootState, unknown, Action>;
