import { baseApi } from './baseApi';
import type { RealtimePayload, Schema } from './types';

/**
 * The transcription queue (issue 24 §3): the user's waiting and running files, each with its
 * place in the whole instance's queue and estimated start and end. Both /transcripts and the
 * Vault's processing items read the one cached answer of `GET /api/transcription/queue`; the
 * socket's `queueUpdate` event carries the same shape and replaces it whenever the queue changes
 * (the transcripts feature's listener). The times are estimates and are shown as such.
 */
export type TranscriptionQueue = Schema<'QueueView'>;
export type QueuedFile = Schema<'QueuedFile'>;
export type QueueBasis = Schema<'QueueBasis'>;
export type QueueUpdateEvent = RealtimePayload<'queueUpdate'>;

export const queueApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getTranscriptionQueue: build.query<TranscriptionQueue, void>({
      query: () => '/transcription/queue',
      transformResponse: (response: Schema<'Envelope_QueueView'>) => response.data,
      providesTags: ['TranscriptionQueue'],
    }),
  }),
});

export const { useGetTranscriptionQueueQuery } = queueApi;

/** The key a queued file is found by: the client's file id is unique within its job only. */
export const queueKey = (jobId: string, fileId: string) => `${jobId}/${fileId}`;

/** The queue's files by `queueKey`. */
export function queuedFilesByKey(queue: TranscriptionQueue | undefined): Map<string, QueuedFile> {
  return new Map((queue?.files ?? []).map((file) => [queueKey(file.jobId, file.fileId), file]));
}
