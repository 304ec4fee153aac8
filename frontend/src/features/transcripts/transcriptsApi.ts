import { baseApi, type Envelope } from '@/api/baseApi';
import type { TranscriptionFile } from './transcriptsSlice';

export interface TranscriptionRequestFile {
  id: string;
  mp3Path: string;
  title: string;
}

export interface StartTranscriptionRequest {
  files: TranscriptionRequestFile[];
  model: string;
  outputFormat: 'markdown' | 'txt';
}

export interface ScheduleTranscriptionRequest extends StartTranscriptionRequest {
  startTime: string;
  endTime: string;
}

export interface FileJobRequest {
  fileId: string;
  jobId: string;
}

export interface HistoryEntry {
  id: string;
  title: string;
  retryCount: number;
  maxRetries: number;
  lastFailedAt: string | null;
}

/** Overnight window of the spec (§9). */
export const OVERNIGHT_WINDOW = { startTime: '01:00', endTime: '06:00' } as const;

// Starting, scheduling, retrying and cancelling change server state: never repeat them by themselves.
const once = { maxRetries: 0 };

export const transcriptsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    startTranscription: build.mutation<{ jobId: string }, StartTranscriptionRequest>({
      query: (body) => ({ url: '/transcription/start', method: 'POST', body }),
      transformResponse: (response: Envelope<{ jobId: string }>) => response.data,
      extraOptions: once,
    }),
    scheduleTranscription: build.mutation<{ jobId: string }, ScheduleTranscriptionRequest>({
      query: (body) => ({ url: '/transcription/schedule', method: 'POST', body }),
      transformResponse: (response: Envelope<{ jobId: string }>) => response.data,
      extraOptions: once,
    }),
    retryTranscription: build.mutation<Partial<TranscriptionFile>, FileJobRequest>({
      query: (body) => ({ url: '/transcription/retry', method: 'POST', body }),
      transformResponse: (response: Envelope<Partial<TranscriptionFile> | null>) => response?.data ?? {},
      invalidatesTags: ['History'],
      extraOptions: once,
    }),
    cancelTranscription: build.mutation<Partial<TranscriptionFile>, FileJobRequest>({
      query: (body) => ({ url: '/transcription/cancel', method: 'POST', body }),
      transformResponse: (response: Envelope<Partial<TranscriptionFile> | null>) => response?.data ?? {},
      extraOptions: once,
    }),
    getTranscriptionHistory: build.query<HistoryEntry[], string>({
      query: (jobId) => `/transcription/history/${encodeURIComponent(jobId)}`,
      transformResponse: (response: Envelope<HistoryEntry[]>) => response.data ?? [],
      providesTags: (_result, _error, jobId) => [{ type: 'History', id: jobId }, 'History'],
    }),
    /**
     * The id of the Vault item made from a transcript path (`GET /library/transcripts?path=…&limit=1`),
     * null while the Vault has none. Provides the Vault lists' tag, so a libraryUpdate event (the
     * item was created) asks again.
     */
    getVaultItemIdByPath: build.query<string | null, string>({
      query: (path) => `/library/transcripts?${new URLSearchParams({ path, limit: '1' }).toString()}`,
      transformResponse: (response: { data?: Array<{ id?: unknown }> } | null) => {
        const id = Array.isArray(response?.data) ? response.data[0]?.id : undefined;
        return typeof id === 'string' && id ? id : null;
      },
      providesTags: [{ type: 'Transcript', id: 'LIST' }],
    }),
  }),
});

export const { useGetTranscriptionHistoryQuery, useGetVaultItemIdByPathQuery } = transcriptsApi;
