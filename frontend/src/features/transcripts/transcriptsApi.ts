import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';

export type TranscriptionRequestFile = Schema<'FileInput'>;

export type StartTranscriptionRequest = Schema<'StartInput'>;

export type ScheduleTranscriptionRequest = Schema<'ScheduleInput'>;

export type FileJobRequest = Schema<'FileRefInput'>;

export type HistoryEntry = Schema<'HistoryEntryView'>;

/** Overnight window of the product spec (docs/product-spec.md §9). */
export const OVERNIGHT_WINDOW = { startTime: '01:00', endTime: '06:00' } as const;

// Starting, scheduling, retrying and cancelling change server state: never repeat them by themselves.
const once = { maxRetries: 0 };

export const transcriptsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    startTranscription: build.mutation<Schema<'StartedView'>, StartTranscriptionRequest>({
      query: (body) => ({ url: '/transcription/start', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_StartedView'>) => response.data,
      invalidatesTags: ['TranscriptionQueue'],
      extraOptions: once,
    }),
    scheduleTranscription: build.mutation<Schema<'StartedView'>, ScheduleTranscriptionRequest>({
      query: (body) => ({ url: '/transcription/schedule', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_StartedView'>) => response.data,
      invalidatesTags: ['TranscriptionQueue'],
      extraOptions: once,
    }),
    retryTranscription: build.mutation<Schema<'FileView'>, FileJobRequest>({
      query: (body) => ({ url: '/transcription/retry', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_FileView'>) => response.data,
      invalidatesTags: ['History', 'TranscriptionQueue'],
      extraOptions: once,
    }),
    cancelTranscription: build.mutation<Schema<'FileView'>, FileJobRequest>({
      query: (body) => ({ url: '/transcription/cancel', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_FileView'>) => response.data,
      invalidatesTags: ['TranscriptionQueue'],
      extraOptions: once,
    }),
    getTranscriptionHistory: build.query<HistoryEntry[], string>({
      query: (jobId) => `/transcription/history/${encodeURIComponent(jobId)}`,
      transformResponse: (response: Schema<'Envelope_Vec_HistoryEntryView'>) => response.data,
      providesTags: (_result, _error, jobId) => [{ type: 'History', id: jobId }, 'History'],
    }),
    /**
     * The id of the Vault item made from a transcript path (`GET /library/transcripts?path=…&limit=1`),
     * null while the Vault has none. Provides the Vault lists' tag, so a libraryUpdate event (the
     * item was created) asks again.
     */
    getVaultItemIdByPath: build.query<string | null, string>({
      query: (path) => `/library/transcripts?${new URLSearchParams({ path, limit: '1' }).toString()}`,
      transformResponse: (response: Schema<'TranscriptPage'> | null) => {
        const id = Array.isArray(response?.data) ? response.data[0]?.id : undefined;
        return typeof id === 'string' && id ? id : null;
      },
      providesTags: [{ type: 'Transcript', id: 'LIST' }],
    }),
  }),
});

export const { useGetTranscriptionHistoryQuery, useGetVaultItemIdByPathQuery } = transcriptsApi;
