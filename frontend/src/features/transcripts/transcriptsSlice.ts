import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { isRealtimeEvent } from '@/api/realtimeSlice';
import type { Schema } from '@/api/types';
import { HANDOFF_KEYS, readJson } from '@/lib/storage';

export const isTranscriptionProgress = isRealtimeEvent.transcriptionProgress;
export const isTranscriptionComplete = isRealtimeEvent.transcriptionComplete;
export const isTranscriptionError = isRealtimeEvent.transcriptionError;

/** A row's status: the contract's FileStatus (the transcription events; toStatus narrows FileView's string). */
export type TranscriptionStatus = Schema<'FileStatus'>;

/** Every FileStatus, to check what sessionStorage holds (a Record, so tsc sees a new one). */
const STATUSES = Object.keys({
  pending: true,
  transcribing: true,
  completed: true,
  error: true,
  scheduled: true,
  retrying: true,
  failed: true,
} satisfies Record<TranscriptionStatus, true>) as readonly TranscriptionStatus[];

/** Retry limit shown when the server has not said otherwise (docs/product-spec.md §9). */
export const DEFAULT_MAX_RETRIES = 10;
export const INTERRUPTED_MESSAGE = 'Process interrupted';

export interface TranscriptionFile {
  id: string;
  youtubeVideoId: string | null;
  title: string;
  mp3Path: string;
  status: TranscriptionStatus;
  progress: number;
  errorMessage: string | null;
  retryCount: number;
  maxRetries: number;
  lastFailedAt: string | null;
  transcriptPath: string | null;
  markdownPath: string | null;
  /** Milliseconds. */
  processingTime: number | null;
  /** The server job the file was last sent with. */
  jobId: string | null;
}

export type WhisperModel = 'small';

export interface TranscriptionSettings {
  whisperModel: WhisperModel;
  scheduleOvernight: boolean;
  outputAsMarkdown: boolean;
}

export const DEFAULT_SETTINGS: TranscriptionSettings = {
  whisperModel: 'small',
  scheduleOvernight: false,
  outputAsMarkdown: true,
};

/** localStorage key of the transcription settings. */
export const SETTINGS_STORAGE_KEY = 'transcriptionSettings';

export interface TranscriptsState {
  files: TranscriptionFile[];
  /** Jobs with files still to finish. */
  activeJobIds: string[];
  /** A run started from this screen is going on. */
  isProcessing: boolean;
  settings: TranscriptionSettings;
  /** Counts finished runs, so a listener can announce 'All transcriptions completed!'. */
  completedRuns: number;
}

export const isFinished = (status: TranscriptionStatus) =>
  status === 'completed' || status === 'error' || status === 'failed';
export const isInFlight = (status: TranscriptionStatus) => status === 'transcribing' || status === 'retrying';
export const isStartable = (status: TranscriptionStatus) => status === 'pending' || status === 'scheduled';
export const isFailed = (status: TranscriptionStatus) => status === 'error' || status === 'failed';

function toStatus(value: unknown, fallback: TranscriptionStatus): TranscriptionStatus {
  if (typeof value !== 'string') return fallback;
  const lower = value.toLowerCase();
  return (STATUSES as readonly string[]).includes(lower) ? (lower as TranscriptionStatus) : fallback;
}

export interface NewTranscriptionFile {
  id?: string;
  title: string;
  mp3Path: string;
  youtubeVideoId?: string | null;
}

export function newFile(input: NewTranscriptionFile): TranscriptionFile {
  return {
    id: input.id ?? crypto.randomUUID(),
    youtubeVideoId: input.youtubeVideoId ?? null,
    title: input.title,
    mp3Path: input.mp3Path,
    status: 'pending',
    progress: 0,
    errorMessage: null,
    retryCount: 0,
    maxRetries: DEFAULT_MAX_RETRIES,
    lastFailedAt: null,
    transcriptPath: null,
    markdownPath: null,
    processingTime: null,
    jobId: null,
  };
}

/** Restores a stored file list; anything still running belonged to a job that is gone. */
function restoreFiles(stored: unknown): TranscriptionFile[] {
  if (!Array.isArray(stored)) return [];
  return (stored as unknown[])
    .filter((item): item is Partial<TranscriptionFile> & { id: string; mp3Path: string } => {
      if (!item || typeof item !== 'object') return false;
      const candidate = item as Record<string, unknown>;
      return typeof candidate.id === 'string' && typeof candidate.mp3Path === 'string';
    })
    .map((item) => {
      const file: TranscriptionFile = {
        ...newFile({ id: item.id, title: item.title ?? item.mp3Path, mp3Path: item.mp3Path }),
        ...item,
        status: toStatus(item.status, 'pending'),
      };
      if (isInFlight(file.status)) {
        return { ...file, status: 'failed', progress: 0, errorMessage: INTERRUPTED_MESSAGE };
      }
      return file;
    });
}

export function loadInitialState(): TranscriptsState {
  const files = restoreFiles(readJson<unknown>('session', HANDOFF_KEYS.transcripts));
  const storedSettings = readJson<Partial<TranscriptionSettings>>('local', SETTINGS_STORAGE_KEY) ?? {};
  const settings: TranscriptionSettings = {
    whisperModel: 'small',
    scheduleOvernight:
      typeof storedSettings.scheduleOvernight === 'boolean' ? storedSettings.scheduleOvernight : DEFAULT_SETTINGS.scheduleOvernight,
    outputAsMarkdown:
      typeof storedSettings.outputAsMarkdown === 'boolean' ? storedSettings.outputAsMarkdown : DEFAULT_SETTINGS.outputAsMarkdown,
  };
  // Scheduled jobs run on the server later: keep listening for them.
  const activeJobIds = [...new Set(files.filter((f) => f.status === 'scheduled' && f.jobId).map((f) => f.jobId as string))];
  return { files, activeJobIds, isProcessing: false, settings, completedRuns: 0 };
}

/** Drops jobs whose files are all finished; ends the run when no job is left. */
function settleJobs(state: TranscriptsState) {
  state.activeJobIds = state.activeJobIds.filter((jobId) =>
    state.files.some((file) => file.jobId === jobId && !isFinished(file.status)),
  );
  const stillRunning = state.files.some((file) => isInFlight(file.status));
  if (state.isProcessing && state.activeJobIds.length === 0 && !stillRunning) {
    state.isProcessing = false;
    state.completedRuns += 1;
  }
}

function findFile(state: TranscriptsState, fileId: string) {
  return state.files.find((file) => file.id === fileId);
}

const transcriptsSlice = createSlice({
  name: 'transcripts',
  initialState: loadInitialState,
  reducers: {
    filesAdded: {
      reducer(state, action: PayloadAction<TranscriptionFile[]>) {
        const known = new Set(state.files.map((file) => file.mp3Path));
        for (const file of action.payload) {
          if (known.has(file.mp3Path)) continue;
          known.add(file.mp3Path);
          state.files.push(file);
        }
      },
      prepare(files: NewTranscriptionFile[]) {
        return { payload: files.map(newFile) };
      },
    },
    fileRemoved(state, action: PayloadAction<string>) {
      state.files = state.files.filter((file) => file.id !== action.payload);
      settleJobs(state);
    },
    completedCleared(state) {
      state.files = state.files.filter((file) => file.status !== 'completed');
    },
    /** Files stuck in a running state (no events are coming) go back to pending. */
    stuckReset(state) {
      for (const file of state.files) {
        if (isInFlight(file.status)) {
          file.status = 'pending';
          file.progress = 0;
          file.errorMessage = null;
        }
      }
      state.activeJobIds = [];
      state.isProcessing = false;
    },
    /** Files were sent to /start: they show as Processing until events arrive. */
    startRequested(state, action: PayloadAction<string[]>) {
      for (const file of state.files) {
        if (action.payload.includes(file.id)) {
          file.status = 'transcribing';
          file.progress = 0;
          file.errorMessage = null;
        }
      }
      state.isProcessing = true;
    },
    startFailed(state, action: PayloadAction<string[]>) {
      for (const file of state.files) {
        if (action.payload.includes(file.id) && file.status === 'transcribing') {
          file.status = 'pending';
          file.progress = 0;
        }
      }
      state.isProcessing = state.files.some((file) => isInFlight(file.status));
    },
    jobStarted(state, action: PayloadAction<{ jobId: string; fileIds: string[] }>) {
      const { jobId, fileIds } = action.payload;
      for (const file of state.files) if (fileIds.includes(file.id)) file.jobId = jobId;
      if (!state.activeJobIds.includes(jobId)) state.activeJobIds.push(jobId);
      settleJobs(state);
    },
    jobScheduled(state, action: PayloadAction<{ jobId: string; fileIds: string[] }>) {
      const { jobId, fileIds } = action.payload;
      for (const file of state.files) {
        if (fileIds.includes(file.id)) {
          file.jobId = jobId;
          file.status = 'scheduled';
          file.progress = 0;
          file.errorMessage = null;
        }
      }
      if (!state.activeJobIds.includes(jobId)) state.activeJobIds.push(jobId);
    },
    /** A retry call on the file's existing job succeeded. */
    fileRetrying(state, action: PayloadAction<{ fileId: string; file?: Schema<'FileView'> }>) {
      const file = findFile(state, action.payload.fileId);
      if (!file) return;
      const server: Partial<Schema<'FileView'>> = action.payload.file ?? {};
      file.status = 'retrying';
      file.progress = 0;
      file.errorMessage = null;
      if (typeof server.retryCount === 'number') file.retryCount = server.retryCount;
      if (typeof server.maxRetries === 'number') file.maxRetries = server.maxRetries;
      if (file.jobId && !state.activeJobIds.includes(file.jobId)) state.activeJobIds.push(file.jobId);
      state.isProcessing = true;
    },
    /** Failed files that go through a fresh start lose their old job. */
    filesReset(state, action: PayloadAction<string[]>) {
      for (const file of state.files) {
        if (action.payload.includes(file.id)) {
          file.status = 'pending';
          file.progress = 0;
          file.errorMessage = null;
          file.jobId = null;
        }
      }
    },
    fileCancelled(state, action: PayloadAction<{ fileId: string; file?: Schema<'FileView'> }>) {
      const file = findFile(state, action.payload.fileId);
      if (!file) return;
      const server: Partial<Schema<'FileView'>> = action.payload.file ?? {};
      // FileView's status is still a string in the REST contract (the events' is a FileStatus).
      const status = toStatus(server.status, 'error');
      file.status = isInFlight(status) ? 'error' : status;
      file.progress = 0;
      file.errorMessage =
        typeof server.errorMessage === 'string' && server.errorMessage ? server.errorMessage : 'Cancelled by user';
      settleJobs(state);
    },
    /** Stop All: after the grace period every job is forgotten and unfinished files are pending again. */
    allJobsCleared(state) {
      for (const file of state.files) {
        if (!isFinished(file.status)) {
          file.status = 'pending';
          file.progress = 0;
        }
      }
      state.activeJobIds = [];
      state.isProcessing = false;
    },
    settingsChanged(state, action: PayloadAction<Partial<TranscriptionSettings>>) {
      state.settings = { ...state.settings, ...action.payload, whisperModel: 'small' };
    },
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(isTranscriptionProgress, (state, { payload: { data: payload } }) => {
        if (!payload) return;
        const file = findFile(state, payload.fileId);
        if (!file || file.status === 'completed') return;
        file.status = 'transcribing';
        file.progress = Math.max(0, Math.min(100, Number(payload.progress) || 0));
        if (payload.jobId) {
          file.jobId = payload.jobId;
          if (!state.activeJobIds.includes(payload.jobId)) state.activeJobIds.push(payload.jobId);
        }
        state.isProcessing = true;
      })
      .addMatcher(isTranscriptionComplete, (state, { payload: { data: payload } }) => {
        if (!payload) return;
        const file = findFile(state, payload.fileId);
        if (!file) return;
        file.status = 'completed';
        file.progress = 100;
        file.errorMessage = null;
        file.transcriptPath = payload.transcriptPath ?? null;
        file.markdownPath = payload.markdownPath ?? null;
        file.processingTime = payload.processingTime ?? null;
        if (payload.jobId) file.jobId = payload.jobId;
        settleJobs(state);
      })
      .addMatcher(isTranscriptionError, (state, { payload: { data: payload } }) => {
        if (!payload) return;
        const file = findFile(state, payload.fileId);
        if (!file) return;
        file.status = payload.status;
        file.errorMessage = payload.errorMessage ?? payload.error ?? 'Transcription failed';
        file.progress = 0;
        if (typeof payload.retryCount === 'number') file.retryCount = payload.retryCount;
        if (typeof payload.maxRetries === 'number') file.maxRetries = payload.maxRetries;
        if (payload.lastFailedAt !== undefined) file.lastFailedAt = payload.lastFailedAt ?? null;
        if (payload.jobId) file.jobId = payload.jobId;
        settleJobs(state);
      });
  },
});

export const {
  filesAdded,
  fileRemoved,
  completedCleared,
  stuckReset,
  startRequested,
  startFailed,
  jobStarted,
  jobScheduled,
  fileRetrying,
  filesReset,
  fileCancelled,
  allJobsCleared,
  settingsChanged,
} = transcriptsSlice.actions;
export const transcriptsReducer = transcriptsSlice.reducer;

type WithTranscripts = { transcripts: TranscriptsState };
export const selectTranscriptionFiles = (state: WithTranscripts) => state.transcripts.files;
export const selectTranscriptionSettings = (state: WithTranscripts) => state.transcripts.settings;
export const selectIsProcessing = (state: WithTranscripts) => state.transcripts.isProcessing;
export const selectActiveJobIds = (state: WithTranscripts) => state.transcripts.activeJobIds;
