import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';
import { libraryApi } from './libraryApi';

/**
 * 'Transcribe with Whisper' on an item made from YouTube's captions: the call starts the run
 * (the item then names it in `whisperJobId`), and the run's job is read while it works; the
 * socket's transcription events patch it (libraryListeners), and the item's `libraryUpdate`
 * brings the new transcript.
 */
export type TranscriptSource = Schema<'TranscriptSource'>;
export type WhisperRun = Schema<'WhisperRunView'>;
export type WhisperJob = Schema<'TranscriptionJobView'>;
export type WhisperFile = Schema<'FileView'>;

export const TRANSCRIPT_SOURCE_LABELS: Record<TranscriptSource, string> = {
  whisper: 'Whisper',
  'captions:uploader': "YouTube captions (the channel's)",
  'captions:auto': 'YouTube automatic captions',
};

export function isCaptions(source: TranscriptSource | null | undefined): boolean {
  return source === 'captions:uploader' || source === 'captions:auto';
}

export const WHISPER_ERRORS = {
  start: 'Failed to start the Whisper transcription',
  job: 'Failed to fetch the Whisper transcription',
} as const;

// Starting a run changes server state: never repeated by itself.
const once = { maxRetries: 0 };

export const whisperApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    transcribeWithWhisper: build.mutation<WhisperRun, string>({
      query: (itemId) => ({ url: `/library/transcripts/${encodeURIComponent(itemId)}/whisper`, method: 'POST' }),
      transformResponse: (response: Schema<'Envelope_WhisperRunView'>) => response.data,
      extraOptions: once,
      async onQueryStarted(itemId, { dispatch, queryFulfilled }) {
        const { data: run } = await queryFulfilled.catch(() => ({ data: null }));
        if (run) dispatch(libraryApi.util.updateQueryData('getVaultItem', itemId, () => run.transcript));
      },
    }),
    /** The run's job: its one file's status, progress and error. */
    getWhisperJob: build.query<WhisperJob, string>({
      query: (jobId) => `/transcription/jobs/${encodeURIComponent(jobId)}`,
      transformResponse: (response: Schema<'Envelope_TranscriptionJobView'>) => response.data,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useTranscribeWithWhisperMutation, useGetWhisperJobQuery } = whisperApi;

/** What the item shows of its run: its file, from the job. */
export function whisperFileOf(job: WhisperJob | undefined): WhisperFile | undefined {
  return job?.files[0];
}
