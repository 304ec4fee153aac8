import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Connection state of the realtime socket and the socket's events as actions, so that any feature
 * can react to them in its own reducers without importing another feature.
 */
export interface RealtimeState {
  connected: boolean;
}

const initialState: RealtimeState = { connected: false };

const realtimeSlice = createSlice({
  name: 'realtime',
  initialState,
  reducers: {
    connectionChanged(state, action: PayloadAction<boolean>) {
      state.connected = action.payload;
    },
  },
});

export const { connectionChanged } = realtimeSlice.actions;
export const realtimeReducer = realtimeSlice.reducer;

export interface TranscriptionProgressEvent {
  fileId: string;
  jobId: string;
  progress: number;
}

export interface TranscriptionCompleteEvent {
  fileId: string;
  jobId: string;
  transcriptPath?: string | null;
  markdownPath?: string | null;
  processingTime?: number | null;
}

export interface TranscriptionErrorEvent {
  fileId: string;
  jobId: string;
  errorMessage?: string;
  error?: string;
  status?: string;
  retryCount?: number;
  maxRetries?: number;
  lastFailedAt?: string | null;
}

export interface DownloadProgressEvent {
  jobId: string;
  status: string;
  processedVideos?: number;
  totalVideos?: number;
  error?: string | null;
}

export const transcriptionProgressReceived = createAction<TranscriptionProgressEvent>(
  'realtime/transcriptionProgress',
);
export const transcriptionCompleteReceived = createAction<TranscriptionCompleteEvent>(
  'realtime/transcriptionComplete',
);
export const transcriptionErrorReceived = createAction<TranscriptionErrorEvent>('realtime/transcriptionError');
export const downloadProgressReceived = createAction<DownloadProgressEvent>('realtime/downloadProgress');
